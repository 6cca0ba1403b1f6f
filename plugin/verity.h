/* SPDX-License-Identifier: MIT */
/*
 * What the parts of the verity plugin share: its settings (rpm macros), its
 * state across a transaction, and the helpers each part provides. A
 * package's signatures come from the common decoder (common/package_sigs.h).
 */
#ifndef RPMVERITY_PLUGIN_VERITY_H
#define RPMVERITY_PLUGIN_VERITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

#include <rpm/header.h>
#include <rpm/rpmfiles.h>
#include <rpm/rpmlog.h>

#include "package_sigs.h"
#include "rpm_plugin_api.h"
#include "verity_keyring.h"

enum verity_policy {
	VERITY_POLICY_OFF,
	VERITY_POLICY_WARN,
	VERITY_POLICY_ENFORCE,
};

struct verity_settings {
	enum verity_policy policy;	/* %_fsverity_policy */
	char *certs;			/* %_fsverity_certs, space separated */
	char *keyring_trust;		/* %_fsverity_keyring_trust */
	bool lock_keyring;		/* %_fsverity_lock_keyring */
	bool require_signatures;	/* %_fsverity_require_signatures */
	bool sign_config_files;		/* %_fsverity_sign_config_files */
	bool require_fs_support;	/* %_fsverity_require_fs_support */
	bool summary;			/* %_fsverity_summary */
	bool boot_loader_warning;	/* %_fsverity_boot_loader_warning */
};

/* settings.c: reads the macros; false (after logging why) on a bad value. */
bool verity_settings_load(struct verity_settings *s);
void verity_settings_free(struct verity_settings *s);
const char *verity_policy_name(enum verity_policy p);

/* The level a protection failure is logged at under a policy. */
static inline int verity_fail_level(enum verity_policy p)
{
	return p == VERITY_POLICY_ENFORCE ? RPMLOG_ERR : RPMLOG_WARNING;
}

/* keyring.c: certificates into the kernel's .fs-verity keyring, through
 * the code rpm-verity-load-certs shares (common/verity_keyring.c). */
enum verity_keyring_rc verity_keyring_setup(const struct verity_settings *s,
					    int fail_level);

/* boot_loader.c: whether root has a boot-time certificate loader. */
bool verity_boot_loader_installed(const char *root);

/* enable.c: turn fs-verity on for one installed file. */
struct verity_enable_req {
	int fd;			/* a descriptor of the file */
	bool writer;		/* fd is rpm's, open for writing */
	const struct stat *st;	/* fstat() of fd */
	int dir_fd;		/* name is relative to this (or AT_FDCWD) */
	const char *name;	/* a name that reaches the same file now */
	unsigned int algo;
	const uint8_t *sig;
	size_t sig_len;
	double *kernel_seconds;	/* the ioctl's wall time is added here */
};

/*
 * Returns 0 on success (or when verity was already on) and an errno value
 * otherwise. On success rpm's fd has been replaced by a read-only descriptor
 * of the same file (see enable.c for why).
 */
int verity_enable(const struct verity_enable_req *req);

/* A monotonic clock in seconds, for the transaction summary. */
static inline double verity_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The reason for an errno from verity_enable(), in words. */
const char *verity_enable_reason(int err);
bool verity_errno_is_unsupported(int err);

/* A digest the plugin verified, for the enforcer's table (enforcer_bind.c). */
struct verity_bound {
	uint16_t alg, size;	/* size 0: none */
	uint8_t digest[64];
};
struct sig_verifier;

/* The plugin's state across one rpm transaction (verity.c owns it). */
struct verity_plugin {
	struct verity_settings set;
	bool active;		/* this transaction installs files, policy on */
	struct package_sigs *pkg;	/* package being installed */
	char *nevra;		/* its name, for messages */
	bool pkg_skip;		/* its signatures are unusable (warned) */
	dev_t *unsupported;	/* filesystems already reported */
	size_t n_unsupported;
	char *dir_name;		/* directory of the last file protected, */
	int dir_fd;		/* kept open (O_PATH) while it repeats, or -1 */
	/* For the transaction summary (%_fsverity_summary, rpm -vv): */
	unsigned long n_protected;	/* files given fs-verity */
	double plugin_seconds;		/* wall time in our hooks */
	double kernel_seconds;		/* of which in FS_IOC_ENABLE_VERITY */
	/* rpm-verity-enforcer (enforcer_bind.c): */
	int table_fd;			/* its table, or -1: not loaded */
	bool self_check;		/* check signatures here, to bind them */
	struct sig_verifier **verifiers;	/* %_fsverity_certs' */
	size_t nverifiers;
	char *root_prefix;		/* the root, "" for / */
	struct verity_bound *bound;	/* per file of the package */
	size_t nbound;
	unsigned long n_bound;		/* bindings made */
};

/* What a failure returns to rpm under the policy. */
static inline rpmRC verity_fail_or_ok(const struct verity_plugin *vp)
{
	return vp->set.policy == VERITY_POLICY_ENFORCE ? RPMRC_FAIL : RPMRC_OK;
}

/* protect_file.c: a file this plugin would protect, judged from the package. */
bool verity_wants_file(const struct verity_settings *s, mode_t mode,
		       rpmfileAttrs flags);

/* protect_file.c: close the directory kept open for the next file. */
void verity_forget_dir(struct verity_plugin *vp);

/* protect_file.c: fs-verity for a file rpm has written, not yet renamed. */
rpmRC verity_protect_file(struct verity_plugin *vp, rpmfi fi, int fd,
			  const char *path, const char *dest, mode_t mode,
			  rpmFsmOp op);

/* enforcer_bind.c: rpm-verity-enforcer's table kept current. */
rpmRC verity_enforcer_start(struct verity_plugin *vp, rpmts ts,
			    bool kernel_checks);
void verity_enforcer_stop(struct verity_plugin *vp);
void verity_enforcer_package(struct verity_plugin *vp, size_t nfiles);
rpmRC verity_check_signature(struct verity_plugin *vp, rpmfi fi, int fd,
			     const struct file_sig *sig, const char *dest);
void verity_enforcer_file_pre(struct verity_plugin *vp, rpmfi fi,
			      const char *path, rpmFsmOp op);
void verity_enforcer_file_post(struct verity_plugin *vp, rpmfi fi,
			       const char *path, rpmFsmOp op, int res);

#endif
