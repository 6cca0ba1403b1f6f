// SPDX-License-Identifier: MIT
/*
 * audit --unowned: fs-verity and IMA sigv3 sign content, not a path, so a
 * signed binary hard-linked or moved to a path no package lists still runs
 * under a policy that asks only for a valid signature. This walks the
 * trees and reports every regular file with fs-verity on, or with an IMA
 * signature in security.ima, at a path the rpmdb does not list, naming the
 * package file whose signed content it is when the index finds one.
 *
 * Rules of the walk: no symlink is followed (a start path is resolved
 * inside the root, as the rest of the audit does); a directory is entered
 * only on the filesystems it was given: those of the start paths, or by
 * default those that hold a regular file the rpmdb lists; a directory
 * that is its own ancestor (a bind mount) is not entered twice. Per file,
 * only what the kernel says: the directory entry's type, statx
 * (STATX_ATTR_VERITY), FS_IOC_MEASURE_VERITY and the builtin signature on
 * an open fd, and getxattr("security.ima"). A file a package owns costs a
 * hash lookup and no system call.
 */
#include "audit.h"
#include "ima_sig.h"
#include "signing_key.h"

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
#include <linux/limits.h>
#include <rpm/rpmdb.h>
#include <rpm/rpmstring.h>
#include <rpm/rpmstrpool.h>

/* enum evm_ima_xattr_type: the signature types (a bare hash is not one). */
#define EVM_IMA_XATTR_DIGSIG	3

#define MAX_DEPTH 1024

struct walker {
	const struct audit_unowned_opts *o;
	struct audit_owned *owned;
	struct audit_index *index;	/* NULL until a signed file needs it */
	dev_t *devs;		/* the filesystems to stay on */
	size_t ndevs;
	bool proc;		/* /proc/self/fd names a directory fd */
	struct { dev_t dev; ino_t ino; } up[MAX_DEPTH];
	int depth;
	struct audit_file_state st;
	uint8_t ima[XATTR_SIZE_MAX];	/* any value the kernel can hold */
	unsigned long errors;
};

static void walk_error(struct walker *w, const char *path, const char *what)
{
	fprintf(stderr, "rpm-verity audit: %s: %s: %s\n", path, what,
		strerror(errno));
	w->errors++;
}

static bool dev_allowed(const struct walker *w, dev_t dev)
{
	for (size_t i = 0; i < w->ndevs; i++)
		if (w->devs[i] == dev)
			return true;
	return false;
}

static void add_dev(struct walker *w, dev_t dev)
{
	if (dev_allowed(w, dev))
		return;
	w->devs = rrealloc(w->devs, (w->ndevs + 1) * sizeof(*w->devs));
	w->devs[w->ndevs++] = dev;
}

/*
 * security.ima of @name in @dirfd without opening the file: through
 * /proc/self/fd, not following @name. Length, or -1 (errno).
 */
static ssize_t ima_at(struct walker *w, int dirfd, const char *name, int fd)
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

/*
 * What every package signed, read again from the rpmdb the first time a
 * signed file turns up at a path no package owns: decoding every file's
 * signatures (base64 and hex) was most of a clean run's cost, for an index
 * a clean system never asks. The certificates are loaded here too
 * (cmd_audit.c checked only that they can be read). A certificate that
 * does not load, or a package whose tags are malformed, is an error here,
 * as the audit of the packages' files reports it; a clean system's scan
 * reads neither.
 */
static struct audit_index *index_of(struct walker *w)
{
	X509 **certs = NULL;
	size_t ncerts = 0;
	rpmdbMatchIterator mi;
	rpmstrPool pool;
	struct audit_pkg pkg;
	char *err = NULL;
	Header h;

	if (w->index)
		return w->index;
	w->errors += audit_certs_load(w->o->certs, &certs, &ncerts);
	w->index = audit_index_new(certs, ncerts);	/* keeps its references */
	audit_certs_free(certs, ncerts);
	mi = rpmtsInitIterator(w->o->ts, RPMDBI_PACKAGES, NULL, 0);
	pool = rpmstrPoolCreate();
	while ((h = rpmdbNextIterator(mi))) {
		if (audit_pkg_load(&pkg, h, pool, false, &err) != 0) {
			fprintf(stderr, "rpm-verity audit: %s\n", err);
			free(err);
			err = NULL;
			w->errors++;
		} else {
			for (int i = 0; i < pkg.nfiles; i++)
				audit_index_add(w->index, &pkg, i);
		}
		audit_pkg_free(&pkg);
	}
	rpmdbFreeIterator(mi);
	rpmstrPoolFree(pool);
	return w->index;
}

/* @ima_len: the IMA signature's length in w->ima, 0 without one. */
static void report(struct walker *w, const char *path, bool verity,
		   size_t ima_len, const char *why_not_measured)
{
	const struct audit_file_state *st = &w->st;
	const struct audit_pkgfile *pf = NULL;
	const char *how = "signed content of";
	char *detail = NULL;

	if (st->measured)
		pf = audit_index_content(index_of(w), st->digest_alg, st->digest,
					 st->sig_errno == 0 ? st->sig : NULL,
					 st->sig_len);
	if (!pf && ima_len) {
		pf = audit_index_ima(index_of(w), w->ima, ima_len);
		how = "IMA signature of";
	}
	rasprintf(&detail, "%s%s%s%s%s",
		  verity ? "fs-verity" : "",
		  verity && ima_len ? " and " : "",
		  ima_len ? "an IMA signature" : "",
		  why_not_measured ? ", not measured: " : "",
		  why_not_measured ? why_not_measured : "");
	if (!pf)
		detail = rstrcat(&detail, ", content no installed package signed");
	audit_report_unowned(w->o->rep, path, how, pf, detail);
	free(detail);
}

/* A regular file @name (path @path) in the directory (@dev, @ino). */
static void scan_file(struct walker *w, int dirfd, dev_t dev, ino_t ino,
		      const char *name, const char *path)
{
	struct statx sx;
	bool verity = false, known;
	const char *why = NULL;
	ssize_t ima_len;
	int fd = -1;

	w->o->rep->scanned++;
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
	if (verity || ima_len > 0)
		report(w, path, verity, ima_len > 0 ? (size_t)ima_len : 0, why);
}

/* Made for every entry of the walk: copies, not a format (rasprintf). */
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

static void walk_dir(struct walker *w, int fd, const char *path, dev_t dev,
		     ino_t ino);

/* Enter @name, a directory in @dirfd, if the rules allow. */
static void enter(struct walker *w, int dirfd, const char *name,
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
	if (w->depth >= MAX_DEPTH) {
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
static void walk_dir(struct walker *w, int fd, const char *path, dev_t dev,
		     ino_t ino)
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
	for (errno = 0; (de = readdir(d)); errno = 0) {
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
	if (errno)
		walk_error(w, path, "cannot read the directory");
	w->depth--;
	closedir(d);
}

/* Start at @path under the root; its filesystem is one to stay on. */
static void start_at(struct walker *w, const char *given, bool add)
{
	char *path = NULL;
	struct stat st;
	size_t len;
	int pfd, fd = -1;

	/* Named as under "/", as the problems' paths are. */
	rasprintf(&path, "%s%s", given[0] == '/' ? "" : "/", given);
	while ((len = strlen(path)) > 1 && path[len - 1] == '/')
		path[len - 1] = '\0';
	pfd = audit_root_opendir(w->o->root, path);
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

/* Every installed package's paths: one pass, names and modes alone. */
static void read_owned(struct walker *w)
{
	rpmdbMatchIterator mi = rpmtsInitIterator(w->o->ts, RPMDBI_PACKAGES,
						  NULL, 0);
	rpmstrPool pool = rpmstrPoolCreate();
	struct audit_pkg pkg;
	Header h;

	while ((h = rpmdbNextIterator(mi))) {
		audit_pkg_load_names(&pkg, h, pool);
		w->o->rep->packages++;
		if (pkg.files)
			audit_owned_add(w->owned, w->o->root, &pkg);
		audit_pkg_free(&pkg);
	}
	rpmdbFreeIterator(mi);
	rpmstrPoolFree(pool);
}

unsigned long audit_unowned(const struct audit_unowned_opts *o)
{
	struct walker *w = rcalloc(1, sizeof(*w));
	const char **p = o->paths;
	unsigned long errors;
	rpmVSFlags vsflags;
	size_t n;

	w->o = o;
	w->owned = audit_owned_new();
	w->proc = access("/proc/self/fd", X_OK) == 0;
	o->rep->unowned = true;
	/*
	 * rpm checks each header it reads from the rpmdb against the digests
	 * (SHA-1, SHA-256) and any OpenPGP signature it carries. Not in this
	 * scan: that cost as much as the rest of a clean scan, and it finds a
	 * damaged rpmdb, not a forged one, since whoever can write the rpmdb
	 * can recompute the digests and drop the signature (rpm takes a
	 * header without one). headerImport still checks each header's
	 * structure. The scan's trust lies elsewhere: a file's content is
	 * named as a package's through a signature that verifies against
	 * --cert (or an IMA value, byte for byte), and a forged header can
	 * claim a path, and so hide a file from the scan, checked digests or
	 * not. The audit without --unowned leaves rpm's setting as it is.
	 */
	vsflags = rpmtsVSFlags(o->ts);
	rpmtsSetVSFlags(o->ts, vsflags | RPMVSF_NOHDRCHK);
	read_owned(w);
	if (p && *p) {
		for (; *p; p++)
			start_at(w, *p, true);
	} else {
		const dev_t *devs = audit_owned_devs(w->owned, &n);

		for (size_t i = 0; i < n; i++)
			add_dev(w, devs[i]);
		start_at(w, "/", false);
	}
	rpmtsSetVSFlags(o->ts, vsflags);
	errors = w->errors;
	audit_index_free(w->index);
	audit_owned_free(w->owned);
	free(w->devs);
	free(w);
	return errors;
}
