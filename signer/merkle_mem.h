/* SPDX-License-Identifier: MIT */
/*
 * The fs-verity digest of a file held whole in memory: most files of a
 * package are a few blocks, and for them libfsverity's read callback (a
 * copy of every block) and its digest lookup on every block cost more than
 * the hashing. The tree is built straight from the buffer with a digest
 * fetched once per thread. Files larger than MERKLE_MEM_MAX stream through
 * libfsverity (payload_digests.c).
 */
#ifndef RPMVERITY_MERKLE_MEM_H
#define RPMVERITY_MERKLE_MEM_H

#include <stddef.h>
#include <stdint.h>
#include <openssl/evp.h>

#include "verity_format.h"

#define MERKLE_MEM_MAX	(1024 * 1024)

/* One per thread: an EVP_MD_CTX must not be shared. */
struct merkle_hasher {
	const struct verity_hash_alg *alg;
	EVP_MD *md;
	EVP_MD_CTX *ctx;
};

int merkle_hasher_init(struct merkle_hasher *h,
		       const struct verity_hash_alg *alg);
void merkle_hasher_free(struct merkle_hasher *h);

/*
 * The digest of @size bytes at @data (1 to MERKLE_MEM_MAX), version 1,
 * 4096-byte blocks, no salt: what libfsverity_compute_digest() gives.
 * Returns 0, or -1 (no memory, OpenSSL failed, @size out of range).
 */
int merkle_mem_digest(struct merkle_hasher *h, const uint8_t *data,
		      size_t size, uint8_t digest[VERITY_MAX_DIGEST_SIZE]);

#endif
