/* SPDX-License-Identifier: MIT */
/*
 * Certificates into the kernel's .fs-verity keyring: the one way the plugin
 * (at the start of a transaction) and rpm-verity-load-certs (at boot) load
 * them, restrict or lock the keyring and set require_signatures. Linux
 * checks a file's builtin signature against that keyring at every first
 * open after boot, so both must do exactly the same thing.
 *
 * Messages go through the caller's log function, with syslog levels (which
 * are rpmlog's levels too), so this code does not need librpm.
 */
#ifndef RPMVERITY_COMMON_VERITY_KEYRING_H
#define RPMVERITY_COMMON_VERITY_KEYRING_H

#include <stdbool.h>
#include <stddef.h>

typedef void (*verity_log_fn)(void *ctx, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Which keys must have signed a certificate before the kernel takes it onto
 * .fs-verity, as the kernel's asymmetric key restrictions name them. The
 * keyring is restricted to that before the first certificate is loaded, so
 * a certificate dropped into the configuration is refused by the kernel
 * itself, as the .ima keyring refuses one. "none" leaves it open.
 */
#define VERITY_TRUST_DEFAULT "builtin_and_secondary_trusted"
#define VERITY_TRUST_BUILTIN "builtin_trusted"
#define VERITY_TRUST_NONE "none"
/*
 * "ca:/path/ca.pem": only certificates the CA in that file signed itself
 * (the kernel's key_or_keyring restriction). The CA need not chain to a key
 * the kernel trusts, and should not: the kernel takes a signed IPE policy
 * from any key that does, so a package CA outside its keyrings keeps
 * package-signing keys from signing one (README, "Who can sign an IPE
 * policy"). Whoever restricts first decides, so the file comes from the
 * initramfs.
 */
#define VERITY_TRUST_CA_PREFIX "ca:"
/* The choices, for messages. */
#define VERITY_TRUST_CHOICES \
	VERITY_TRUST_DEFAULT ", " VERITY_TRUST_BUILTIN ", " \
	VERITY_TRUST_CA_PREFIX "/PATH/TO/CA or " VERITY_TRUST_NONE

/* Whether name is one of the choices above (ca: with an absolute path). */
bool verity_trust_valid(const char *name);

/* What restricts .fs-verity after a load. */
enum verity_restriction {
	VERITY_RESTRICTION_NONE,	/* open: any certificate goes */
	VERITY_RESTRICTION_TRUST,	/* only ones signed by trusted keys */
	VERITY_RESTRICTION_LOCKED,	/* no key can be added */
	VERITY_RESTRICTION_EARLIER,	/* restricted before this load */
};

struct verity_keyring_opts {
	const char *certs;	/* PEM or DER files, separated by white space */
	const char *trust;	/* VERITY_TRUST_*; NULL: the default */
	bool lock;		/* no key at all can be added after loading */
	bool require_signatures; /* write 1 to fs/verity/require_signatures */
	bool check_only;	/* only find out which certificates are there */
	int fail_level;		/* level failures are logged at (LOG_ERR...) */
	verity_log_fn log;
	void *log_ctx;
};

/* What happened, for the caller's report. */
struct verity_keyring_result {
	unsigned int files;	/* certificate files read */
	unsigned int certs;	/* certificates found in them */
	unsigned int added;	/* linked into .fs-verity now */
	unsigned int present;	/* already there (not added again) */
	unsigned int missing;	/* check_only: not there */
	unsigned int failed;	/* unreadable, or refused by the kernel */
	unsigned int keyring_keys; /* keys in .fs-verity afterwards */
	bool reached;		/* the keyring was found and worked on */
	enum verity_restriction restriction; /* afterwards */
	const char *trusted;	/* restricted to certificates these signed
				 * (a VERITY_TRUST_* name, or ca:FILE) */
	bool required;		/* require_signatures was set */
};

enum verity_keyring_rc {
	VERITY_KEYRING_OK,
	VERITY_KEYRING_UNSUPPORTED,	/* this kernel has no .fs-verity keyring */
	VERITY_KEYRING_FAILED,		/* already logged at fail_level */
};

enum verity_keyring_rc verity_keyring_load(const struct verity_keyring_opts *o,
					   struct verity_keyring_result *r);

/* "restricted to certificates signed by builtin_trusted keys" and so on. */
const char *verity_restriction_describe(const struct verity_keyring_result *r,
					char *buf, size_t size);

#define VERITY_REQUIRE_SIGNATURES_SYSCTL "/proc/sys/fs/verity/require_signatures"

#endif
