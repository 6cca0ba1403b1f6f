// SPDX-License-Identifier: MIT
/*
 * The walk of audit --unowned (the why is in audit_unowned.c). Rules: no
 * symlink is followed (a start path is resolved inside the root, as the
 * rest of the audit does); a directory is entered only on the filesystems
 * it was given: those of the start paths, or by default those that hold a
 * regular file the rpmdb lists; a directory that is its own ancestor (a
 * bind mount) is not entered twice. Per file, only what the kernel says:
 * the directory entry's type, statx (STATX_ATTR_VERITY),
 * FS_IOC_MEASURE_VERITY and the builtin signature on an open fd, and
 * getxattr("security.ima"). A file a package owns costs a hash lookup and
 * no system call.
 */
#include "scan.h"
#include "ima_sig.h"
#include <rpm/rpmstring.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>

/* enum evm_ima_xattr_type: the signature types (a bare hash is not one). */
#define EVM_IMA_XATTR_DIGSIG	3

static bool walk_error(struct unowned_walk *w, const char *path,
		       const char *what)
{
	if (!w->error(w, path, what))
		w->stopped = true;
	return !w->stopped;
}

static bool dev_allowed(const struct unowned_walk *w, dev_t dev)
{
	for (size_t i = 0; i < w->ndevs; i++)
		if (w->devs[i] == dev)
			return true;
	return false;
}

static void add_dev(struct unowned_walk *w, dev_t dev)
{
	if (dev_allowed(w, dev))
		return;
	w->devs = rrealloc(w->devs, (w->ndevs + 1) * sizeof(*w->devs));
	w->devs[w->ndevs++] = dev;
}

/*
 * security.ima of @name in @dirfd, from @fd when the file is open, else
 * without opening it: through /proc/self/fd, not following @name. Length,
 * or -1 (errno).
 */
static ssize_t ima_at(struct unowned_walk *w, int dirfd, const char *name,
		      int fd)
{
	char via[64 + NAME_MAX];

	if (fd >= 0)
		return fgetxattr(fd, "security.ima", w->ima, sizeof(w->ima));
	if (!w->proc) {
		ssize_t n;

		fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
			    O_NOCTTY | O_CLOEXEC);
		if (fd < 0)
			return -1;
		n = fgetxattr(fd, "security.ima", w->ima, sizeof(w->ima));
		close(fd);
		return n;
	}
	snprintf(via, sizeof(via), "/proc/self/fd/%d/%s", dirfd, name);
	return lgetxattr(via, "security.ima", w->ima, sizeof(w->ima));
}

/* A regular file @name (path @path) in the directory (@dev, @ino). */
static void scan_file(struct unowned_walk *w, int dirfd, dev_t dev,
		      ino_t ino, const char *name, const char *path)
{
	struct statx sx;
	bool verity = false, known;
	const char *why = NULL;
	ssize_t ima_len;
	int fd = -1;

	w->scanned++;
	if (audit_owned_has(w->owned, dev, ino, name))
		return;
	if (statx(dirfd, name, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT,
		  STATX_TYPE, &sx) != 0) {
		if (errno != ENOENT)
			walk_error(w, path, "cannot stat");
		return;
	}
	if (!S_ISREG(sx.stx_mode))
		return;		/* replaced since the directory was read */
	/* btrfs on 6.1 without our patch 0006 leaves the mask bit unset. */
	known = sx.stx_attributes_mask & STATX_ATTR_VERITY;
	verity = sx.stx_attributes & STATX_ATTR_VERITY;
	w->st.measured = false;
	if (verity || !known) {
		fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
			    O_NOCTTY | O_CLOEXEC);
		if (fd >= 0) {
			audit_measure(fd, &w->st);
			verity = w->st.verity;
		} else if (errno == ENOENT) {
			return;
		} else if (verity) {
			why = strerror(errno);	/* ENOKEY: cert not loaded */
		} else {
			walk_error(w, path, "cannot open");
			return;
		}
	}
	ima_len = ima_at(w, dirfd, name, fd);
	if (fd >= 0)
		close(fd);
	if (ima_len < 0 && errno != ENODATA && errno != EOPNOTSUPP &&
	    errno != ENOENT) {
		walk_error(w, path, "cannot read security.ima");
		return;
	}
	if (ima_len > 0 && w->ima[0] != IMA_VERITY_DIGSIG &&
	    w->ima[0] != EVM_IMA_XATTR_DIGSIG)
		ima_len = 0;	/* a hash IMA keeps, not a signature */
	if ((verity || ima_len > 0) &&
	    !w->found(w, path, verity, ima_len > 0 ? (size_t)ima_len : 0, why))
		w->stopped = true;
}

/* Made for every entry of the walk: copies, not a format. */
static char *child_path(const char *dir, const char *name)
{
	size_t dlen = strlen(dir), nlen = strlen(name);
	size_t slash = dir[dlen - 1] != '/';
	char *p = rmalloc(dlen + slash + nlen + 1);

	memcpy(p, dir, dlen);
	p[dlen] = '/';
	memcpy(p + dlen + slash, name, nlen + 1);
	return p;
}

static void walk_dir(struct unowned_walk *w, int fd, const char *path,
		     dev_t dev, ino_t ino);

/* Enter @name, a directory in @dirfd, if the rules allow. */
static void enter(struct unowned_walk *w, int dirfd, const char *name,
		  const char *path)
{
	struct statx sx;
	struct stat st;
	dev_t dev;
	int fd;

	if (statx(dirfd, name, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT,
		  STATX_TYPE | STATX_INO, &sx) != 0) {
		if (errno != ENOENT)
			walk_error(w, path, "cannot stat");
		return;
	}
	dev = makedev(sx.stx_dev_major, sx.stx_dev_minor);
	if (!S_ISDIR(sx.stx_mode) || !dev_allowed(w, dev))
		return;
	for (int i = 0; i < w->depth; i++)
		if (w->up[i].dev == dev && w->up[i].ino == sx.stx_ino)
			return;	/* its own ancestor: a bind mount */
	if (w->depth >= UNOWNED_MAX_DEPTH) {
		errno = ELOOP;
		walk_error(w, path, "too deep");
		return;
	}
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
	if (fd < 0) {
		if (errno != ENOENT)
			walk_error(w, path, "cannot open");
		return;
	}
	/* Renamed or mounted over since the statx: not what was checked. */
	if (fstat(fd, &st) != 0 || st.st_dev != dev || st.st_ino != sx.stx_ino) {
		close(fd);
		return;
	}
	walk_dir(w, fd, path, dev, sx.stx_ino);
}

/* Walk the directory open at @fd (closed here), known as @path. */
static void walk_dir(struct unowned_walk *w, int fd, const char *path,
		     dev_t dev, ino_t ino)
{
	DIR *d = fdopendir(fd);
	struct dirent *de;
	bool files = dev_allowed(w, dev);

	if (!d) {
		walk_error(w, path, "cannot read the directory");
		close(fd);
		return;
	}
	w->up[w->depth].dev = dev;
	w->up[w->depth++].ino = ino;
	for (errno = 0; !w->stopped && (de = readdir(d)); errno = 0) {
		const char *name = de->d_name;
		char *child;

		if (!strcmp(name, ".") || !strcmp(name, ".."))
			continue;
		if (de->d_type != DT_REG && de->d_type != DT_DIR &&
		    de->d_type != DT_UNKNOWN)
			continue;	/* symlinks, devices, sockets */
		child = child_path(path, name);
		if (de->d_type == DT_REG) {
			if (files)
				scan_file(w, dirfd(d), dev, ino, name, child);
		} else {
			struct stat st;

			/* DT_UNKNOWN: a regular file is scanned, a directory entered. */
			if (de->d_type == DT_UNKNOWN &&
			    fstatat(dirfd(d), name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			    S_ISREG(st.st_mode)) {
				if (files)
					scan_file(w, dirfd(d), dev, ino, name,
						  child);
			} else {
				enter(w, dirfd(d), name, child);
			}
		}
		free(child);
	}
	if (errno && !w->stopped)
		walk_error(w, path, "cannot read the directory");
	w->depth--;
	closedir(d);
}

/* Start at @given under the root; its filesystem is one to stay on. */
static void start_at(struct unowned_walk *w, const char *given, bool add)
{
	char *path = rstrscat(NULL, given[0] == '/' ? "" : "/", given, NULL);
	struct stat st;
	size_t len;
	int pfd, fd = -1;

	/* Named as under "/", as the problems' paths are. */
	while ((len = strlen(path)) > 1 && path[len - 1] == '/')
		path[len - 1] = '\0';
	pfd = audit_root_opendir(w->root, path);
	if (pfd >= 0) {
		fd = openat(pfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		close(pfd);
	}
	if (fd < 0 || fstat(fd, &st) != 0) {
		walk_error(w, path, "cannot walk");
		if (fd >= 0)
			close(fd);
		free(path);
		return;
	}
	if (add)
		add_dev(w, st.st_dev);
	walk_dir(w, fd, path, st.st_dev, st.st_ino);
	free(path);
}

void unowned_walk(struct unowned_walk *w)
{
	const char *const *p = w->paths;
	size_t n;

	w->proc = access("/proc/self/fd", X_OK) == 0;
	if (p && *p) {
		for (; *p && !w->stopped; p++)
			start_at(w, *p, true);
	} else {
		const dev_t *devs = audit_owned_devs(w->owned, &n);

		for (size_t i = 0; i < n; i++)
			add_dev(w, devs[i]);
		start_at(w, "/", false);
	}
	free(w->devs);
	w->devs = NULL;
	w->ndevs = 0;
}
