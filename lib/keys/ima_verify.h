/* SPDX-License-Identifier: MIT */
/* rpm-verity verify --ima-cert: checking a package's IMA sigv3 signatures. */
#ifndef RPMVERITY_IMA_VERIFY_H
#define RPMVERITY_IMA_VERIFY_H

#include <rpm/rpmfiles.h>
#include <openssl/x509.h>

#include "package.h"
#include "verity_format.h"

/*
 * Check the IMA entry of every file of @pkg against @cert: a signable file
 * (verity_file_signed) whose fs-verity digest is known (@known[i], digest at
 * @digests + i * VERITY_MAX_DIGEST_SIZE) must carry a valid sigv3 signature
 * by @cert over it; other files must have an empty entry. Prints one line
 * per problem and, when there is none, one line saying so. Returns the
 * number of problems, or -1 with a message in *@err when the tags
 * themselves are unusable.
 */
int ima_verify_package(const struct package *pkg, rpmfiles files,
		       X509 *cert, const char *certpath,
		       const struct verity_hash_alg *alg,
		       const uint8_t *digests, const unsigned char *known,
		       char **err);

#endif
