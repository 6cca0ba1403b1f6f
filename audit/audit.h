/* SPDX-License-Identifier: MIT */
/*
 * rpm-verity audit: the pieces cmd_audit.c puts together. Installed
 * packages come from the rpmdb (audit_rpmdb.c), files are opened under the
 * root without leaving it (audit_open.c) and asked about their fs-verity
 * state by ioctl only (audit_measure.c), each distinct signature is checked
 * once (audit_sigcache.c), and problems are printed (audit_report.c).
 * --unowned (audit_unowned.c) walks the trees instead: the paths packages
 * own (audit_owned.c), read from the rpmdb first, tell which verity or
 * IMA-signed files no package put there, and the content they signed
 * (audit_index.c), read only once such a file turns up, whose signed
 * content they are.
 */
#ifndef RPMVERITY_AUDIT_H
#define RPMVERITY_AUDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <rpm/rpmfiles.h>
#include <rpm/rpmts.h>
#include <sys/types.h>
#include <openssl/x509.h>

#include "package_sigs.h"
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

/* --- audit_rpmdb.c: installed packages and their files' signatures --- */

struct audit_pkg {
	Header h;
	char *nevra;
	rpmfiles files;
	int nfiles;
	const struct verity_hash_alg *alg;
	/* Tags 276/277 and 5090/5091, by the common decoder. */
	struct package_sigs *sigs;
	bool has_sigs, has_ima;
	bool sign_config_files;	/* %_fsverity_sign_config_files */
};

/*
 * Read @h's fs-verity signatures (the tags persist in the rpmdb). Returns 0,
 * or -1 with the reason in *@err when the tags are malformed; a package
 * without signatures loads with has_sigs false. IMA tags that are not one
 * string per file are left out (has_ima false), as before the decoder.
 * @pool, shared by the packages loaded with it, keeps their file names (one
 * made per package costs more than the names it holds); NULL: one of its own.
 */
int audit_pkg_load(struct audit_pkg *pkg, Header h, rpmstrPool pool,
		   bool sign_config_files, char **err);
/*
 * Only @h's file names and modes (for audit_owned_add): no NEVRA, no
 * signatures (has_sigs and has_ima false), nothing that can be malformed.
 */
void audit_pkg_load_names(struct audit_pkg *pkg, Header h, rpmstrPool pool);
void audit_pkg_free(struct audit_pkg *pkg);

/*
 * Whether file @i is one the plugin protects; if not, *@why says which kind
 * of entry it is (%config, %ghost, directory...), for --verbose.
 */
bool audit_pkg_wants(const struct audit_pkg *pkg, int i, const char **why);

/* File @i's decoded fs-verity signature entry (FILE_SIG_NONE without). */
const struct file_sig *audit_pkg_sig(const struct audit_pkg *pkg, int i);

/*
 * File @i's IMA signature as bytes in @buf (at most @size); returns the
 * length, 0 when the package has none for it, -1 if the entry is not hex.
 */
ssize_t audit_pkg_ima(const struct audit_pkg *pkg, int i, uint8_t *buf,
		      size_t size);

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

/* --- audit_sigcache.c: each distinct signature checked once --- */

struct audit_sigcache;
struct sig_verifier;

enum audit_sig_verdict {
	AUDIT_SIG_OK,		/* by a given certificate, over this digest */
	AUDIT_SIG_UNTRUSTED,	/* by none of the given certificates */
	AUDIT_SIG_MISMATCH,	/* by a given certificate, other content */
	AUDIT_SIG_MALFORMED,	/* its parts are not what the signer reads */
};

/* One verifier per certificate (aborts when out of memory), and its free. */
struct sig_verifier **audit_verifiers_new(X509 *const *certs, size_t ncerts);
void audit_verifiers_free(struct sig_verifier **v, size_t n);

struct audit_sigcache *audit_sigcache_new(X509 *const *certs, size_t ncerts);
void audit_sigcache_free(struct audit_sigcache *c);

/*
 * Who signed the DER signature @der (a decoded header entry). Its signer
 * is looked up only the first time the bytes are seen.
 */
enum audit_sig_verdict audit_sigcache_signer(struct audit_sigcache *c,
					     const uint8_t *der, size_t len);

/*
 * Whether the signature last passed to audit_sigcache_signer() signs
 * @digest; each (signature, digest) pair is verified once.
 */
enum audit_sig_verdict audit_sigcache_check(struct audit_sigcache *c,
					    const struct verity_hash_alg *alg,
					    const uint8_t *digest);

/* Verifications done, for --verbose. */
size_t audit_sigcache_verifications(const struct audit_sigcache *c);

/* --- audit_certs.c: the certificates given --- */

/*
 * Appends the certificate of each file in the NULL-terminated @paths to
 * *@certs (*@n of them). A file that does not load is reported on stderr
 * and skipped; returns how many were.
 */
size_t audit_certs_load(const char *const *paths, X509 ***certs, size_t *n);
void audit_certs_free(X509 **certs, size_t n);

/* --- audit_keymap.c: byte strings to values, for the two below --- */

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

struct audit_owned *audit_owned_new(void);
void audit_owned_free(struct audit_owned *o);
/* Add every file @pkg lists, its directory resolved under @r. */
void audit_owned_add(struct audit_owned *o, struct audit_root *r,
		     const struct audit_pkg *pkg);
/* Whether @name in the directory (@dev, @ino) is a listed path. */
bool audit_owned_has(const struct audit_owned *o, dev_t dev, ino_t ino,
		     const char *name);
/* The filesystems that hold a listed regular file: @n of them in @devs. */
const dev_t *audit_owned_devs(const struct audit_owned *o, size_t *n);

/* --- audit_index.c: signed content back to its package file --- */

struct audit_index;

/* A package file, as the index names it. */
struct audit_pkgfile {
	char *nevra;
	char *path;
};

/* Only signatures by @certs name a package file. */
struct audit_index *audit_index_new(X509 *const *certs, size_t ncerts);
void audit_index_free(struct audit_index *x);
/* Remember file @i of @pkg's fs-verity and IMA signatures. */
void audit_index_add(struct audit_index *x, const struct audit_pkg *pkg,
		     int i);

/*
 * The package file whose trusted fs-verity signature signs
 * @digest (of algorithm @alg_id), or NULL. The file's own builtin
 * signature @sig (NULL if unread) is looked up first; else the hash each
 * RSA signature signs, recovered once for all (sig_verifier_recover).
 */
const struct audit_pkgfile *audit_index_content(struct audit_index *x,
						uint16_t alg_id,
						const uint8_t *digest,
						const uint8_t *sig,
						size_t sig_len);
/* The package file whose IMA signature (tag 5090) is @value, or NULL. */
const struct audit_pkgfile *audit_index_ima(const struct audit_index *x,
					    const uint8_t *value, size_t len);

/* --- audit_unowned.c: the --unowned walk --- */

struct audit_unowned_opts {
	struct audit_root *root;
	rpmts ts;
	/* Certificate files (NULL-terminated), read when a file's signed
	 * content is first to be named: only their signatures name one. */
	const char *const *certs;
	const char **paths;	/* trees to walk, under the root; NULL: all */
	struct audit_report *rep;
};

/* Walk and report; returns the number of errors (exit status 2). */
unsigned long audit_unowned(const struct audit_unowned_opts *o);

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
