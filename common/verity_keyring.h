/* SPDX-License-Identifier: MIT */
/*
 * Certificates into the kernel's .fs-verity keyring: the one way the plugin
 * (at the start of a transaction) and rpm-verity-load-certs (at boot) load
 * them, lock the keyring and set require_signatures. Linux 6.1 checks a
 * file's builtin signature against that keyring at every first open after
 * boot, so both must do exactly the same thing.
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

struct verity_keyring_opts {
	const char *certs;	/* PEM or DER files, separated by white space */
	bool lock;		/* keyctl_restrict_keyring after loading */
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
	bool locked;		/* the keyring is restricted afterwards */
	bool required;		/* require_signatures was set */
};

enum verity_keyring_rc {
	VERITY_KEYRING_OK,
	VERITY_KEYRING_UNSUPPORTED,	/* this kernel has no .fs-verity keyring */
	VERITY_KEYRING_FAILED,		/* already logged at fail_level */
};

enum verity_keyring_rc verity_keyring_load(const struct verity_keyring_opts *o,
					   struct verity_keyring_result *r);

#define VERITY_REQUIRE_SIGNATURES_SYSCTL "/proc/sys/fs/verity/require_signatures"

#endif
