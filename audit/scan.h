/* SPDX-License-Identifier: MIT */
/*
 * The audit's side that asks the filesystem and the rpmdb's SQLite file
 * rather than librpm: the root opened without leaving it (audit_open.c), a
 * file's fs-verity state by ioctl (audit_measure.c), the paths packages
 * own (audit_owned.c, on audit_keymap.c), the --unowned walk
 * (unowned_walk.c), the rpmdb's file lists (rpmdb_sqlite.c,
 * rpmdb_blob.c) and what the user sees (audit_report.c). audit.h adds
 * the rest.
 */
#ifndef RPMVERITY_AUDIT_SCAN_H
#define RPMVERITY_AUDIT_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "verity_format.h"

/* What audit finds wrong with a file, in the order it checks. */
enum audit_problem {
	AUDIT_MISSING,		/* the file is gone */
	AUDIT_UNREADABLE,	/* the kernel refuses it (EINVAL, EIO...) */
	AUDIT_VERITY_OFF,	/* there, but no fs-verity (or not a regular file) */
	AUDIT_UNTRUSTED,	/* the package's signature is by no given cert */
	AUDIT_DIGEST,		/* measured digest is not the one signed */
	AUDIT_SIG_DIFFERS,	/* the file's builtin signature is not the package's */
	AUDIT_IMA,		/* security.ima is not the package's IMA signature */
	AUDIT_UNOWNED,		/* --unowned: signed file at a path no package owns */
	AUDIT_NPROBLEMS
};

/* The short code printed in the first column ("missing", "verity-off"...). */
const char *audit_problem_code(enum audit_problem p);

/*
 * Whether an open or measure that failed with @err says something about the
 * file (it is damaged: unreadable) rather than about the audit (no
 * permission, out of descriptors or memory: the audit cannot run).
 */
bool audit_errno_is_file_damage(int err);

/* --- audit_open.c: opening files under the root, never outside it --- */

struct audit_root {
	int fd;			/* the root directory */
	bool walk;		/* no openat2: resolve component by component */
	char *dir;		/* directory of the last file, and its fd */
	int dir_fd;
	int dir_errno;		/* why that directory could not be opened */
};

/* Open @path as the root. Returns 0, or -1 with the reason in *@err. */
int audit_root_open(struct audit_root *r, const char *path, char **err);
void audit_root_close(struct audit_root *r);

/*
 * Open the file @base in directory @dir (both as the rpmdb gives them,
 * @dir absolute with a trailing slash) read-only, resolving every symlink
 * as if @r were "/", and not following @base itself if it is a symlink.
 * The directory stays open while the following files share it. Returns the
 * fd, or -1 with errno set (ELOOP: @base is a symlink).
 */
int audit_root_openat(struct audit_root *r, const char *dir,
		      const char *base);

/*
 * Open the directory @dir (absolute, as under "/") the way
 * audit_root_openat() resolves it, as a new O_PATH fd the caller closes;
 * -1 with errno set.
 */
int audit_root_opendir(struct audit_root *r, const char *dir);

/* --- audit_measure.c: a file's fs-verity state, by ioctl alone --- */

struct audit_file_state {
	bool regular;
	bool verity;
	bool measured;		/* digest[] is valid */
	int err;		/* the kernel refused to measure it: errno */
	uint16_t digest_alg;
	uint16_t digest_size;
	uint8_t digest[VERITY_MAX_DIGEST_SIZE];
	int sig_errno;		/* 0: sig[] holds the builtin signature */
	size_t sig_len;
	uint8_t sig[VERITY_MAX_SIG_SIZE];
};

/*
 * statx, FS_IOC_MEASURE_VERITY and FS_IOC_READ_VERITY_METADATA on @fd;
 * never reads the file's contents. A refusal that is not "no verity here"
 * (EIO, EUCLEAN...) is left in st->err.
 */
void audit_measure(int fd, struct audit_file_state *st);

/* security.ima of @fd into @buf; its length, or -1 (errno ENODATA: none). */
ssize_t audit_read_ima(int fd, uint8_t *buf, size_t size);

/* --- audit_keymap.c: byte strings to values (owned paths; in audit.h, the
 * signature cache and the index) --- */

struct audit_keymap;

/* A hash of @len bytes: the keymap's, and the signature cache's. */
uint64_t audit_hash_bytes(const uint8_t *b, size_t len);

/* @free_value (may be NULL) frees each value with the map. */
struct audit_keymap *audit_keymap_new(void (*free_value)(void *));
void audit_keymap_free(struct audit_keymap *m);
/* The value under @key, or NULL. */
void *audit_keymap_get(const struct audit_keymap *m, const void *key,
		       size_t len);
/* Adds @value under @key (copied); false, adding nothing, if it is there. */
bool audit_keymap_add(struct audit_keymap *m, const void *key, size_t len,
		      void *value);
size_t audit_keymap_count(const struct audit_keymap *m);

/* --- audit_owned.c: the paths installed packages own --- */

/*
 * A path is owned when the rpmdb lists it, so /bin/sh listed through a
 * /bin -> usr/bin symlink owns /usr/bin/sh: each listed directory is
 * resolved under the root once, and a path is known by its directory's
 * device and inode and its name. A hard link elsewhere is not owned.
 */
struct audit_owned;

/* The paths listed under @r, which must outlive them. */
struct audit_owned *audit_owned_new(struct audit_root *r);
void audit_owned_free(struct audit_owned *o);
/*
 * Add the listed path @dir@base (@dir as the rpmdb gives it, with its
 * trailing slash), its directory resolved under the root; @mode is the
 * file's.
 */
void audit_owned_add(struct audit_owned *o, const char *dir,
		     const char *base, mode_t mode);
/* The same for rpmdb_sqlite_files(), whose context @owned is. */
void audit_owned_add_fn(void *owned, const char *dir, const char *base,
			uint16_t mode);
/* Whether @name in the directory (@dev, @ino) is a listed path. */
bool audit_owned_has(const struct audit_owned *o, dev_t dev, ino_t ino,
		     const char *name);
/* The filesystems that hold a listed regular file: @n of them in @devs. */
const dev_t *audit_owned_devs(const struct audit_owned *o, size_t *n);

/* A package file, as the index names it (audit_index.c). */
/* A package file, as the index names it. */
struct audit_pkgfile {
	char *nevra;
	char *path;
};

/* --- unowned_walk.c: the --unowned walk --- */

#define UNOWNED_MAX_DEPTH 1024

/*
 * The walk of audit --unowned: every regular file on the filesystems it
 * may stay on that no package owns, asked for fs-verity and an IMA
 * signature. What to do with such a file, or with a path it cannot look
 * at, is the caller's: the callbacks return false to stop the walk.
 */
struct unowned_walk {
	/* The caller's. */
	struct audit_root *root;
	const struct audit_owned *owned;
	const char *const *paths;	/* under the root; NULL: all of it */
	/*
	 * @path carries fs-verity (@verity; st.measured when measured) or an
	 * IMA signature (@ima_len bytes in ima[]); @why_not_measured says why
	 * a verity file could not be measured, or is NULL.
	 */
	bool (*found)(struct unowned_walk *w, const char *path, bool verity,
		      size_t ima_len, const char *why_not_measured);
	/* @path could not be looked at: @what failed, errno says why. */
	bool (*error)(struct unowned_walk *w, const char *path,
		      const char *what);
	/* The walk's results. */
	unsigned long scanned;	/* regular files met */
	bool stopped;		/* a callback said stop */
	struct audit_file_state st;	/* the last found file's */
	uint8_t ima[65536];	/* its security.ima (XATTR_SIZE_MAX: any value) */
	/* The walk's own. */
	dev_t *devs;		/* the filesystems to stay on */
	size_t ndevs;
	bool proc;		/* /proc/self/fd names a directory fd */
	struct { dev_t dev; ino_t ino; } up[UNOWNED_MAX_DEPTH];
	int depth;
};

/*
 * Walk w->paths (each one's filesystem is one to stay on), or all of the
 * root on the filesystems that hold a listed regular file.
 */
void unowned_walk(struct unowned_walk *w);

/* --- audit_report.c: what the user sees --- */

struct audit_report {
	FILE *out;
	bool json;
	bool verbose;
	unsigned long packages;
	unsigned long checked;
	unsigned long skipped;
	unsigned long scanned;	/* --unowned: regular files walked */
	bool unowned;		/* --unowned: the summary counts scanned */
	unsigned long problems[AUDIT_NPROBLEMS];
};

/* One problem with @path of @nevra; @detail (may be NULL) for --verbose and JSON. */
void audit_report_problem(struct audit_report *r, enum audit_problem p,
			  const char *nevra, const char *path,
			  const char *detail);
/*
 * --unowned: @path carries fs-verity or an IMA signature and no package
 * owns it. When its content or signature is package file @pf's, "@how
 * NEVRA FILE" ("signed content of ...") is always printed; @detail (may be
 * NULL) only with --verbose and in JSON.
 */
void audit_report_unowned(struct audit_report *r, const char *path,
			  const char *how, const struct audit_pkgfile *pf,
			  const char *detail);
/* A skipped entry (only printed with --verbose). */
void audit_report_skip(struct audit_report *r, const char *nevra,
		       const char *path, const char *why);
/* The summary line; returns the number of problems. */
unsigned long audit_report_summary(struct audit_report *r);

#endif
