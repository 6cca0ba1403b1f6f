// SPDX-License-Identifier: MIT
/*
 * See merkle_mem.h. The layout is fs-verity's (Documentation/filesystems/
 * fsverity.rst): each level hashes the one below in 4096-byte blocks, the
 * last block of a level zero-padded, until one block's hash remains, the
 * root; the file digest is the hash of the 256-byte descriptor holding
 * the parameters, the size and the root. A file of one block has no tree:
 * its root is that block's hash.
 */
#include "merkle_mem.h"

#include <string.h>

/* struct fsverity_descriptor, version 1. */
#define DESC_SIZE	256
#define DESC_SIZE_OFF	8
#define DESC_ROOT_OFF	16

int merkle_hasher_init(struct merkle_hasher *h,
		       const struct verity_hash_alg *alg)
{
	h->alg = alg;
	h->md = EVP_MD_fetch(NULL, alg->name, NULL);
	h->ctx = EVP_MD_CTX_new();
	if (!h->md || !h->ctx) {
		merkle_hasher_free(h);
		return -1;
	}
	return 0;
}

void merkle_hasher_free(struct merkle_hasher *h)
{
	EVP_MD_CTX_free(h->ctx);
	EVP_MD_free(h->md);
	h->ctx = NULL;
	h->md = NULL;
}

static int hash(struct merkle_hasher *h, const uint8_t *in, size_t len,
		uint8_t *out)
{
	return EVP_DigestInit_ex2(h->ctx, h->md, NULL) == 1 &&
	       EVP_DigestUpdate(h->ctx, in, len) == 1 &&
	       EVP_DigestFinal_ex(h->ctx, out, NULL) == 1 ? 0 : -1;
}

/* Hash @len bytes as ceil(len / 4096) zero-padded blocks into @out. */
static int hash_blocks(struct merkle_hasher *h, const uint8_t *in, size_t len,
		       uint8_t *out)
{
	size_t full = len / VERITY_BLOCK_SIZE, tail = len % VERITY_BLOCK_SIZE;
	size_t ds = h->alg->digest_size;

	for (size_t i = 0; i < full; i++)
		if (hash(h, in + i * VERITY_BLOCK_SIZE, VERITY_BLOCK_SIZE,
			 out + i * ds))
			return -1;
	if (tail) {
		uint8_t block[VERITY_BLOCK_SIZE];

		memcpy(block, in + full * VERITY_BLOCK_SIZE, tail);
		memset(block + tail, 0, VERITY_BLOCK_SIZE - tail);
		if (hash(h, block, VERITY_BLOCK_SIZE, out + full * ds))
			return -1;
	}
	return 0;
}

int merkle_mem_digest(struct merkle_hasher *h, const uint8_t *data,
		      size_t size, uint8_t digest[VERITY_MAX_DIGEST_SIZE])
{
	/* A level's hashes; a level above the data is at most this size. */
	uint8_t level[MERKLE_MEM_MAX / VERITY_BLOCK_SIZE * VERITY_MAX_DIGEST_SIZE];
	uint8_t desc[DESC_SIZE] = { 0 };
	size_t ds = h->alg->digest_size;
	size_t n = (size + VERITY_BLOCK_SIZE - 1) / VERITY_BLOCK_SIZE;
	uint64_t sz = size;

	if (size == 0 || size > MERKLE_MEM_MAX)
		return -1;
	if (hash_blocks(h, data, size, level))
		return -1;
	/* In place: each block of hashes is read before its hash is written. */
	while (n > 1) {
		if (hash_blocks(h, level, n * ds, level))
			return -1;
		n = (n * ds + VERITY_BLOCK_SIZE - 1) / VERITY_BLOCK_SIZE;
	}
	desc[0] = 1;			/* version */
	desc[1] = (uint8_t)h->alg->id;	/* hash_algorithm */
	desc[2] = 12;			/* log2 of the block size */
	for (int i = 0; i < 8; i++)	/* le64 data_size */
		desc[DESC_SIZE_OFF + i] = (uint8_t)(sz >> (8 * i));
	memcpy(desc + DESC_ROOT_OFF, level, ds);
	return hash(h, desc, sizeof(desc), digest);
}
