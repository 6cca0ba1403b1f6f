/* SPDX-License-Identifier: MIT */
/*
 * rpm-verity audit, the library signer/cmd_audit.c calls: the engine
 * (audit_packages.c) and --unowned (audit_unowned.c), with the pieces that
 * ask the filesystem rather than librpm declared in scan.h. Installed
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
#include "scan.h"

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

/* --- audit_system.c: an installed system opened for reading --- */

struct audit_system {
	char *absroot;		/* the root, resolved */
	struct audit_root root;
	X509 **certs;		/* the signers trusted */
	size_t ncerts;
	char *dbdir;		/* the rpmdb's directory, the root's included */
	rpmts ts;		/* its rpmdb, open */
	unsigned long rpm_errors;	/* errors librpm logged since the open */
};

/*
 * Open the system under @root (NULL: /) with the rpmdb at @dbpath under it
 * (NULL: %_dbpath) and the certificates of the files @certs (NULL or
 * empty: %_fsverity_certs). Returns 0, or -1 after saying why on stderr,
 * each message starting with @who. Either way audit_system_close() frees.
 */
int audit_system_open(struct audit_system *s, const char *who,
		      const char *root, const char *dbpath,
		      const char *const *certs);
void audit_system_close(struct audit_system *s);

/* --- audit_index.c: signed content back to its package file --- */

struct audit_index;


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

/* --- audit_packages.c: the engine, every installed package's files --- */

struct audit_packages_opts {
	struct audit_root *root;
	rpmts ts;
	X509 *const *certs;	/* the signers trusted */
	size_t ncerts;
	bool sign_config_files;	/* %_fsverity_sign_config_files */
	const char *const *names;	/* packages to audit; NULL: all */
	struct audit_report *rep;
	/*
	 * Called, if set, for each file whose measured digest a trusted
	 * signature of its package signs, with the file open as @fd (the
	 * enforcer binds its path so).
	 */
	void (*verified)(void *arg, int fd, const struct audit_file_state *st);
	void *arg;
	/* Results, added to. */
	unsigned long errors;	/* files or headers that could not be read */
	size_t verifications;	/* signature checks done, for --verbose */
};

/*
 * Check every file of the packages @o names against its signature and
 * report each problem to @o->rep. Returns 0, or -1 when a named package is
 * not installed (said on stderr).
 */
int audit_packages(struct audit_packages_opts *o);

/* --- audit_unowned.c: the --unowned walk --- */

struct audit_unowned_opts {
	struct audit_root *root;
	rpmts ts;
	const char *dbdir;	/* the rpmdb's directory, the root's included */
	/* The certificates: only their signatures name a package file. */
	X509 *const *certs;
	size_t ncerts;
	const char **paths;	/* trees to walk, under the root; NULL: all */
	struct audit_report *rep;
};

/* Walk and report; returns the number of errors (exit status 2). */
unsigned long audit_unowned(const struct audit_unowned_opts *o);

#endif
