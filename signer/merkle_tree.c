// SPDX-License-Identifier: MIT
/*
 * See merkle_tree.h. The layout is fs-verity's (Documentation/filesystems/
 * fsverity.rst): level 0 hashes the data in 4096-byte blocks, each level
 * above hashes the one below packed into blocks, the last block of every
 * level zero-padded, up to the first level with a single hash, the root
 * (a file of one block has no tree: its root is that block's hash; an
 * empty file's root is zeros). The file digest is the hash of the
 * 256-byte descriptor holding the parameters, the size and the root.
 *
 * Built bottom-up as data comes: a level's pending block is hashed into
 * the level above when it fills, and the partial ones at the end.
 */
#include "merkle_tree.h"

#include <string.h>

/* struct fsverity_descriptor, version 1. */
#define DESC_SIZE	256
#define DESC_SIZE_OFF	8
#define DESC_ROOT_OFF	16

int merkle_tree_init(struct merkle_tree *t, const struct verity_hash_alg *alg)
{
	memset(t, 0, sizeof(*t));
	t->alg = alg;
	t->md = EVP_MD_fetch(NULL, alg->name, NULL);
	t->ctx = EVP_MD_CTX_new();
	if (!t->md || !t->ctx) {
		merkle_tree_free(t);
		return -1;
	}
	return 0;
}

void merkle_tree_free(struct merkle_tree *t)
{
	EVP_MD_CTX_free(t->ctx);
	EVP_MD_free(t->md);
	t->ctx = NULL;
	t->md = NULL;
}

static int hash(struct merkle_tree *t, const uint8_t *in, size_t len,
		uint8_t *out)
{
	return EVP_DigestInit_ex2(t->ctx, t->md, NULL) == 1 &&
	       EVP_DigestUpdate(t->ctx, in, len) == 1 &&
	       EVP_DigestFinal_ex(t->ctx, out, NULL) == 1 ? 0 : -1;
}

/*
 * Append to level @i the hash of a block, @len bytes of it at @block and
 * zeros after them (hashed from a constant: no copy, no clearing), and
 * carry full blocks upward.
 */
static int add_block(struct merkle_tree *t, int i, const uint8_t *block,
		     size_t len)
{
	static const uint8_t zeros[VERITY_BLOCK_SIZE];
	size_t ds = t->alg->digest_size;

	for (; i < MERKLE_MAX_LEVELS; i++) {
		if (EVP_DigestInit_ex2(t->ctx, t->md, NULL) != 1 ||
		    EVP_DigestUpdate(t->ctx, block, len) != 1 ||
		    (len < VERITY_BLOCK_SIZE &&
		     EVP_DigestUpdate(t->ctx, zeros, VERITY_BLOCK_SIZE - len) != 1) ||
		    EVP_DigestFinal_ex(t->ctx, t->level[i] + t->fill[i], NULL) != 1)
			return -1;
		t->fill[i] += ds;
		t->count[i]++;
		if (t->fill[i] < VERITY_BLOCK_SIZE)
			return 0;
		t->fill[i] = 0;		/* full: its hash goes up a level */
		block = t->level[i];
		len = VERITY_BLOCK_SIZE;
	}
	return -1;
}

void merkle_tree_start(struct merkle_tree *t)
{
	t->size = 0;
	t->part_len = 0;
	memset(t->fill, 0, sizeof(t->fill));
	memset(t->count, 0, sizeof(t->count));
}

int merkle_tree_update(struct merkle_tree *t, const uint8_t *data, size_t len)
{
	t->size += len;
	while (len) {
		size_t n;

		if (t->part_len == 0 && len >= VERITY_BLOCK_SIZE) {
			if (add_block(t, 0, data, VERITY_BLOCK_SIZE))
				return -1;
			data += VERITY_BLOCK_SIZE;
			len -= VERITY_BLOCK_SIZE;
			continue;
		}
		n = VERITY_BLOCK_SIZE - t->part_len;
		if (n > len)
			n = len;
		memcpy(t->part + t->part_len, data, n);
		t->part_len += n;
		data += n;
		len -= n;
		if (t->part_len == VERITY_BLOCK_SIZE) {
			t->part_len = 0;
			if (add_block(t, 0, t->part, VERITY_BLOCK_SIZE))
				return -1;
		}
	}
	return 0;
}

int merkle_tree_final(struct merkle_tree *t,
		      uint8_t digest[VERITY_MAX_DIGEST_SIZE])
{
	uint8_t desc[DESC_SIZE] = { 0 };
	size_t ds = t->alg->digest_size;

	if (t->part_len) {
		size_t len = t->part_len;

		t->part_len = 0;
		if (add_block(t, 0, t->part, len))
			return -1;
	}
	if (t->size) {
		int i;

		/* Up to the first level with one hash, padding what is pending. */
		for (i = 0; i < MERKLE_MAX_LEVELS && t->count[i] != 1; i++) {
			size_t fill = t->fill[i];

			if (!fill)
				continue;
			t->fill[i] = 0;
			if (add_block(t, i + 1, t->level[i], fill))
				return -1;
		}
		if (i == MERKLE_MAX_LEVELS)
			return -1;
		memcpy(desc + DESC_ROOT_OFF, t->level[i], ds);
	}
	desc[0] = 1;			/* version */
	desc[1] = (uint8_t)t->alg->id;	/* hash_algorithm */
	desc[2] = 12;			/* log2 of the block size */
	for (int b = 0; b < 8; b++)	/* le64 data_size */
		desc[DESC_SIZE_OFF + b] = (uint8_t)(t->size >> (8 * b));
	return hash(t, desc, sizeof(desc), digest);
}

int merkle_tree_digest(struct merkle_tree *t, const uint8_t *data,
		       size_t size, uint8_t digest[VERITY_MAX_DIGEST_SIZE])
{
	size_t whole = size - size % VERITY_BLOCK_SIZE;

	merkle_tree_start(t);
	if (merkle_tree_update(t, data, whole))
		return -1;
	/* The last block straight from @data, not through @t->part. */
	if (whole < size) {
		t->size = size;
		if (add_block(t, 0, data + whole, size - whole))
			return -1;
	}
	return merkle_tree_final(t, digest);
}
