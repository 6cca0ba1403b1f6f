/* SPDX-License-Identifier: MIT */
/* The IMA half of package_verify.h: checking a package's IMA sigv3 values. */
#ifndef RPMVERITY_IMA_VERIFY_H
#define RPMVERITY_IMA_VERIFY_H

#include <rpm/rpmfiles.h>
#include <openssl/x509.h>

#include "manifest.h"
#include "package.h"
#include "package_sigs.h"

/*
 * Called once per problem: @file is a header index, or -1 for the package
 * as a whole; @why (malloc'ed, now the callee's) names neither. Returns 0,
 * or -1 to stop (out of memory).
 */
typedef int (*ima_problem_fn)(void *ctx, int file, char *why);

/*
 * Check @ima, the decoded IMA table of @pkg's signature header: a signable
 * file (verity_file_signed) must carry a valid sigv3 signature by @cert
 * (key id @keyid) over its fs-verity digest in @digests; other files must
 * have an empty entry; tag 275 must cover the longest value. Returns the
 * number of problems passed to @problem, or -1 when @problem said stop.
 */
int ima_verify_package(const struct package *pkg, rpmfiles files,
		       const struct sig_table *ima, X509 *cert,
		       uint32_t keyid, const struct manifest_package *digests,
		       ima_problem_fn problem, void *ctx);

#endif
