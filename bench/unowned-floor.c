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
 * usage: unowned-floor DIR
 * prints: "floor: N files, V with verity, D directories, E errors"
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

static dev_t root_dev;
static long files, verity, dirs, errors;

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

int main(int argc, char **argv)
{
	struct stat st;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: unowned-floor DIR\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) != 0) {
		perror(argv[1]);
		return 2;
	}
	root_dev = st.st_dev;
	walk(fd);
	printf("floor: %ld files, %ld with verity, %ld directories, %ld errors\n",
	       files, verity, dirs, errors);
	return errors ? 1 : 0;
}
