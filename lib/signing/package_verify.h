/* SPDX-License-Identifier: MIT */
/*
 * Checking a package's file signatures offline, the way the kernel will:
 * fs-verity at install, IMA sigv3 at exec. This is `rpm-verity verify` as
 * a call that returns what it found instead of printing it. The tags come
 * from the one decoder (package_sigs.h), the digests from the digest step
 * sign and inject use (file_digests.h), and which files count from the
 * one rule (file_rule.h), so verify cannot judge a file differently from
 * the signer or the plugin.
 */
#ifndef RPMVERITY_PACKAGE_VERIFY_H
#define RPMVERITY_PACKAGE_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <openssl/x509.h>
#include <rpm/rpmfiles.h>

#include "package.h"
#include "package_sigs.h"

/* The certificates to check against. */
struct verify_certs {
	X509 *verity;		/* fs-verity signatures */
	X509 *ima;		/* NULL: IMA signatures are not checked */
	uint32_t ima_keyid;	/* of @ima (ima_keyid_of_cert) */
};

enum verify_kind { VERIFY_VERITY, VERIFY_IMA };

/* The file index of a problem with the package as a whole. */
#define VERIFY_PACKAGE (-1)

struct verify_problem {
	enum verify_kind kind;
	int file;		/* header index, or VERIFY_PACKAGE */
	char *why;		/* in words, naming neither package nor file */
};

struct verify_result {
	const struct verity_hash_alg *alg;	/* the fs-verity algorithm */
	int nfiles;
	/* fs-verity problems first, then IMA ones, each in header order. */
	struct verify_problem *problems;
	size_t nproblems;
	bool ima_present;	/* the package carries IMA tags (274/275) */
};

/*
 * Check every fs-verity signature of @pkg (@files: its header's files)
 * against @certs->verity and, with @certs->ima, every IMA signature, over
 * digests computed from the payload with @jobs threads. Entries of files
 * that get no signature (verity_file_signed) are not judged, except that
 * an IMA value there is a problem. Returns 0 with the problems in @out
 * (free with verify_result_free), or -1 with a message naming the package
 * in *@err when it cannot be checked at all: no or unusable fs-verity
 * tags, a payload that does not match its digest, out of memory.
 */
int package_verify(const struct package *pkg, rpmfiles files,
		   const struct verify_certs *certs, int jobs,
		   struct verify_result *out, char **err);
void verify_result_free(struct verify_result *r);

/* What `verify --list` shows of one header file. */
struct file_listing {
	bool is_signed;		/* verity_file_signed */
	bool is_protected;	/* verity_file_protected, default settings */
	enum file_sig_state entry;	/* the package's fs-verity entry */
};

/*
 * The listing of each of @files (rpmfilesFC entries, malloc'ed in *@out).
 * Without fs-verity tags every entry is FILE_SIG_NONE. Returns 0, or 1
 * with the reason in *@problem (malloc'ed) when the tags are unusable;
 * every entry is FILE_SIG_MALFORMED then. -1 when out of memory.
 */
int package_list_files(const struct package *pkg, rpmfiles files,
		       struct file_listing **out, char **problem);

#endif
