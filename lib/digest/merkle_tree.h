/* SPDX-License-Identifier: MIT */
/*
 * fs-verity digests built from memory as the content arrives: the
 * payload pipeline hands over chunks it already holds, so nothing is
 * copied into a reader's buffer, and the digest is fetched once per
 * thread. libfsverity_compute_digest() copies every block through a read
 * callback and looks the digest up again for every block it hashes, which
 * for most files (a few blocks each) cost more than the hashing.
 */
#ifndef RPMVERITY_MERKLE_TREE_H
#define RPMVERITY_MERKLE_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <openssl/evp.h>

#include "verity_format.h"

/*
 * Levels of hashes, root included: 2^64 bytes are 2^52 blocks, and with
 * the smallest fan-out (SHA-512, 64 hashes a block) the root is level 9.
 */
#define MERKLE_MAX_LEVELS	10

/*
 * One per thread (an EVP_MD_CTX must not be shared): the digest, and one
 * file's tree under construction, a pending block per level.
 */
struct merkle_tree {
	const struct verity_hash_alg *alg;
	EVP_MD *md;
	EVP_MD_CTX *ctx;
	bool pairs;		/* SHA-256 two at a time (sha256_pair.h) */
	uint8_t *scratch;	/* merkle_tree_digest_many's */
	size_t scratch_size;
	uint64_t size;
	size_t part_len;			/* bytes in @part */
	uint8_t part[VERITY_BLOCK_SIZE];	/* a data block not yet whole */
	size_t fill[MERKLE_MAX_LEVELS];		/* bytes of hashes per level */
	uint64_t count[MERKLE_MAX_LEVELS];	/* hashes a level ever had */
	uint8_t level[MERKLE_MAX_LEVELS][VERITY_BLOCK_SIZE];
};

/* 0, or -1 when the digest cannot be had; free with merkle_tree_free. */
int merkle_tree_init(struct merkle_tree *t, const struct verity_hash_alg *alg);
void merkle_tree_free(struct merkle_tree *t);

/*
 * One file: start, feed its content in pieces of any size, finish.
 * Version 1, 4096-byte blocks, no salt: libfsverity_compute_digest()'s
 * result. Each returns 0, or -1 if OpenSSL failed or the file is too big.
 */
void merkle_tree_start(struct merkle_tree *t);
int merkle_tree_update(struct merkle_tree *t, const uint8_t *data, size_t len);
int merkle_tree_final(struct merkle_tree *t,
		      uint8_t digest[VERITY_MAX_DIGEST_SIZE]);

/* The three at once, for content that is all in memory. */
int merkle_tree_digest(struct merkle_tree *t, const uint8_t *data,
		       size_t size, uint8_t digest[VERITY_MAX_DIGEST_SIZE]);

/*
 * The digests of @n files all in memory, file i being @size[i] bytes at
 * @data[i]: what merkle_tree_digest gives each, but with the blocks of
 * different files hashed side by side, which is what lets small files
 * (one or a few blocks each) use sha256_pair. 0, or -1 as above.
 */
int merkle_tree_digest_many(struct merkle_tree *t, size_t n,
			    const uint8_t *const data[], const size_t size[],
			    uint8_t digest[][VERITY_MAX_DIGEST_SIZE]);

#endif
