/* SPDX-License-Identifier: MIT */
/* The rpm-verity subcommands and what they share. */
#ifndef RPMVERITY_CLI_H
#define RPMVERITY_CLI_H

#include <popt.h>
#include <rpm/rpmfiles.h>

#include "signing_key.h"

int cmd_sign(int argc, const char **argv);
int cmd_verify(int argc, const char **argv);
int cmd_strip(int argc, const char **argv);
int cmd_digests(int argc, const char **argv);
int cmd_sign_digests(int argc, const char **argv);
int cmd_inject(int argc, const char **argv);
int cmd_audit(int argc, const char **argv);

/* Print "rpm-verity: MSG" on stderr and free @msg. */
void report(char *msg);

/* Parse @ctx's options (see below); 0, or -1 after printing the problem. */
int parse_options(poptContext ctx, const char *command, int *jobs);

/*
 * Parse @ctx's options; return the package arguments, or NULL after
 * printing the problem and the usage (exit status 2). A @jobs of 0 becomes
 * one thread per CPU; outside 0..1024 it is a usage error.
 */
const char **parse_command_line(poptContext ctx, const char *command,
				int *jobs);

/* Worker threads for -j 0: one per online CPU. */
int default_jobs(void);

/* @value if given, else the expansion of @macro, else NULL; malloc'ed. */
char *option_or_macro(const char *value, const char *macro);

/* -j N, the threads for WHAT ("hashing", "signing"...), into @var. */
#define JOBS_OPTION(var, what) \
	{ "jobs", 'j', POPT_ARG_INT, &(var), 0, \
	  what " threads (default: all CPUs)", "N" }

/* -a ALGO, into @var; alg_option() resolves it. */
#define ALGO_OPTION(var) \
	{ "algo", 'a', POPT_ARG_STRING, &(var), 0, \
	  "sha256 or sha512 (default: %_verity_algorithm, else sha256)", \
	  "ALGO" }

/* --key, --cert and --pass-file, for POPT_ARG_INCLUDE_TABLE. */
extern struct poptOption key_option_table[];
#define KEY_OPTIONS { NULL, '\0', POPT_ARG_INCLUDE_TABLE, key_option_table, \
		      0, "Signing key:", NULL }

/*
 * Load the key (a PEM file or a pkcs11: URI) and certificate from --key,
 * --cert and --pass-file, defaulting to %_file_signing_key,
 * %_file_signing_cert and %_file_signing_key_password. Reports and returns
 * NULL on failure.
 */
struct signing_key *load_key_options(void);
void free_key_options(void);

/* The first line of @path, for --pass-file; NULL (reported) if unreadable. */
char *read_passphrase(const char *path);

/* --ima-key, --ima-cert, --ima-pass-file (ima_options.c). */
extern struct poptOption ima_option_table[];
#define IMA_OPTIONS { NULL, '\0', POPT_ARG_INCLUDE_TABLE, ima_option_table, \
		      0, "IMA signatures (sigv3, by fs-verity digest):", NULL }
struct ima_key;
/*
 * Load the IMA key and certificate when --ima-key was given: returns 1 with
 * @ik loaded, 0 when IMA signing was not asked for, -1 (reported) on error.
 */
int load_ima_options(struct ima_key *ik);
void free_ima_options(void);

/* --algo, else %_verity_algorithm, else sha256; NULL (reported) if unknown. */
const struct verity_hash_alg *alg_option(const char *algoopt);

/* Checked before any work, so a typo costs nothing; reports when not. */
int is_writable_dir(const char *dir);

/* Where a package goes: @pkg itself, or its file name in @outdir. */
char *output_path(const char *outdir, const char *pkg);

#endif
