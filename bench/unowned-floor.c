// SPDX-License-Identifier: MIT
/*
 * The floor of bench/unowned-bench: what `find DIR -xdev` plus one statx
 * per file and one FS_IOC_MEASURE_VERITY per verity file costs, in a loop
 * with nothing else in it. audit --unowned cannot do less for a file it
 * has to look at.
 *
 * The walk is the one audit_unowned.c makes, not nftw or fts: openat and
 * readdir of each directory, relative to its parent, the entry's d_type
 * telling a directory or regular file from the rest (symlinks, devices are
 * never stat'ed, as find does not need to), one statx per directory and per
 * regular file (a directory's device is what -xdev compares; a file's
 * STATX_ATTR_VERITY says whether to measure), then openat, the measure
 * ioctl and close for each verity file. nftw would lstat every entry
 * itself, and the statx asked for would come on top of it: a floor above
 * what the audit has to do.
 *
 * With --rpmdb, it first reads every header blob of rpm's SQLite rpmdb
 * (table Packages), pages mapped as the audit maps them, taking each blob's
 * address and length and no more: the least an audit that knows which
 * paths packages own can read. With --no-file-stat the walk stats
 * directories only: a clean scan asks nothing of a file a package owns
 * (unowned_walk.c), so this is its floor there.
 *
 * usage: unowned-floor [--rpmdb FILE] [--no-file-stat] [DIR]
 * prints: "floor: N files, V with verity, D directories, E errors" for
 * DIR, "floor: rpmdb: N headers, B bytes" for FILE
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/fsverity.h>
#include <sqlite3.h>

static dev_t root_dev;
static long files, verity, dirs, errors;
static int stat_files = 1;

static void measure(int dirfd, const char *name)
{
	unsigned long long m_buf[(sizeof(struct fsverity_digest) + 64 + 7) / 8];
	struct fsverity_digest *m = (struct fsverity_digest *)m_buf;
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
			O_NOCTTY | O_CLOEXEC);

	if (fd < 0) {
		errors++;
		return;
	}
	m->digest_size = 64;
	if (ioctl(fd, FS_IOC_MEASURE_VERITY, m) == 0)
		verity++;
	else
		errors++;
	close(fd);
}

static void walk(int fd)
{
	DIR *d = fdopendir(fd);
	struct dirent *de;

	if (!d) {
		errors++;
		close(fd);
		return;
	}
	dirs++;
	while ((de = readdir(d))) {
		const char *name = de->d_name;
		struct statx sx;

		if (!strcmp(name, ".") || !strcmp(name, ".."))
			continue;
		if (de->d_type != DT_REG && de->d_type != DT_DIR &&
		    de->d_type != DT_UNKNOWN)
			continue;
		if (de->d_type == DT_REG && !stat_files) {
			files++;
			continue;
		}
		if (statx(dirfd(d), name, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT,
			  STATX_TYPE, &sx) != 0) {
			errors++;
			continue;
		}
		if (S_ISREG(sx.stx_mode)) {
			files++;
			if (sx.stx_attributes & STATX_ATTR_VERITY)
				measure(dirfd(d), name);
		} else if (S_ISDIR(sx.stx_mode) &&
			   makedev(sx.stx_dev_major, sx.stx_dev_minor) == root_dev) {
			int sub = openat(dirfd(d), name, O_RDONLY | O_DIRECTORY |
					 O_NOFOLLOW | O_CLOEXEC);

			if (sub >= 0)
				walk(sub);
			else
				errors++;
		}
	}
	closedir(d);
}

/*
 * Every blob of the rpmdb's table Packages, as audit/rpmdb_sqlite.c reads
 * them (read-only, mapped): 0, or 1 with the reason.
 */
static int read_rpmdb(const char *path)
{
	sqlite3_stmt *st = NULL;
	sqlite3 *db = NULL;
	long n = 0, bytes = 0;
	int rc = SQLITE_ERROR;

	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_exec(db, "PRAGMA mmap_size = 1073741824", NULL, NULL,
			 NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(db, "SELECT blob FROM Packages", -1, &st,
			       NULL) == SQLITE_OK) {
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			if (sqlite3_column_blob(st, 0))
				bytes += sqlite3_column_bytes(st, 0);
			n++;
		}
	}
	if (rc == SQLITE_DONE)
		printf("floor: rpmdb: %ld headers, %ld bytes\n", n, bytes);
	else
		fprintf(stderr, "unowned-floor: %s: %s\n", path,
			db ? sqlite3_errmsg(db) : "cannot open");
	sqlite3_finalize(st);
	sqlite3_close(db);
	return rc == SQLITE_DONE ? 0 : 1;
}

int main(int argc, char **argv)
{
	const char *rpmdb = NULL, *dir = NULL;
	struct stat st;
	int fd, i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--rpmdb") && i + 1 < argc)
			rpmdb = argv[++i];
		else if (!strcmp(argv[i], "--no-file-stat"))
			stat_files = 0;
		else if (argv[i][0] != '-' && !dir)
			dir = argv[i];
		else
			break;
	}
	if (i < argc || (!dir && !rpmdb)) {
		fprintf(stderr, "usage: unowned-floor [--rpmdb FILE] [--no-file-stat] [DIR]\n");
		return 2;
	}
	if (rpmdb && read_rpmdb(rpmdb) != 0)
		return 2;
	if (!dir)
		return 0;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) != 0) {
		perror(dir);
		return 2;
	}
	root_dev = st.st_dev;
	walk(fd);
	printf("floor: %ld files, %ld with verity, %ld directories, %ld errors\n",
	       files, verity, dirs, errors);
	return errors ? 1 : 0;
}
