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
#include "sha256_pair.h"

#include <stdlib.h>
#include <string.h>

/* struct fsverity_descriptor, version 1. */
#define DESC_SIZE	256
#define DESC_SIZE_OFF	8
#define DESC_ROOT_OFF	16

int merkle_tree_init(struct merkle_tree *t, const struct verity_hash_alg *alg)
{
	memset(t, 0, sizeof(*t));
	t->alg = alg;
	t->pairs = alg->digest_size == SHA256_PAIR_DIGEST_SIZE &&
		   strcmp(alg->name, "sha256") == 0 && sha256_pair_available();
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
	free(t->scratch);
	t->ctx = NULL;
	t->md = NULL;
	t->scratch = NULL;
	t->scratch_size = 0;
}

/*
 * The hash of @len bytes at @in followed by zeros up to @total (hashed
 * from a constant: no copy, no clearing). 0, or -1 if OpenSSL failed.
 */
static int hash_padded(struct merkle_tree *t, const uint8_t *in, size_t len,
		       size_t total, uint8_t *out)
{
	static const uint8_t zeros[VERITY_BLOCK_SIZE];

	if (t->pairs) {
		sha256_one(in, len, total, out);
		return 0;
	}
	return EVP_DigestInit_ex2(t->ctx, t->md, NULL) == 1 &&
	       EVP_DigestUpdate(t->ctx, in, len) == 1 &&
	       (len == total ||
		EVP_DigestUpdate(t->ctx, zeros, total - len) == 1) &&
	       EVP_DigestFinal_ex(t->ctx, out, NULL) == 1 ? 0 : -1;
}

/* Two such hashes, at once where the CPU can. */
static int hash_two(struct merkle_tree *t, const uint8_t *a, size_t alen,
		    const uint8_t *b, size_t blen, size_t total,
		    uint8_t *out_a, uint8_t *out_b)
{
	if (t->pairs) {
		sha256_pair(a, alen, b, blen, total, out_a, out_b);
		return 0;
	}
	return hash_padded(t, a, alen, total, out_a) ||
	       hash_padded(t, b, blen, total, out_b) ? -1 : 0;
}

/*
 * Append @hash to level @i and carry full blocks upward: a level's block
 * that fills is hashed into the level above.
 */
static int push_hash(struct merkle_tree *t, int i, const uint8_t *hash)
{
	size_t ds = t->alg->digest_size;
	uint8_t up[VERITY_MAX_DIGEST_SIZE];

	for (; i < MERKLE_MAX_LEVELS; i++) {
		memcpy(t->level[i] + t->fill[i], hash, ds);
		t->fill[i] += ds;
		t->count[i]++;
		if (t->fill[i] < VERITY_BLOCK_SIZE)
			return 0;
		t->fill[i] = 0;		/* full: its hash goes up a level */
		if (hash_padded(t, t->level[i], VERITY_BLOCK_SIZE,
				VERITY_BLOCK_SIZE, up))
			return -1;
		hash = up;
	}
	return -1;
}

/* Append to level @i the hash of @len bytes at @block, zero-padded. */
static int add_block(struct merkle_tree *t, int i, const uint8_t *block,
		     size_t len)
{
	uint8_t hash[VERITY_MAX_DIGEST_SIZE];

	return hash_padded(t, block, len, VERITY_BLOCK_SIZE, hash) ||
	       push_hash(t, i, hash) ? -1 : 0;
}

/* Two whole data blocks at @data, hashed side by side. */
static int add_two_blocks(struct merkle_tree *t, const uint8_t *data)
{
	uint8_t a[VERITY_MAX_DIGEST_SIZE], b[VERITY_MAX_DIGEST_SIZE];

	return hash_two(t, data, VERITY_BLOCK_SIZE, data + VERITY_BLOCK_SIZE,
			VERITY_BLOCK_SIZE, VERITY_BLOCK_SIZE, a, b) ||
	       push_hash(t, 0, a) || push_hash(t, 0, b) ? -1 : 0;
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

		if (t->part_len == 0 && len >= 2 * VERITY_BLOCK_SIZE) {
			if (add_two_blocks(t, data))
				return -1;
			data += 2 * VERITY_BLOCK_SIZE;
			len -= 2 * VERITY_BLOCK_SIZE;
			continue;
		}
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

/* The descriptor of a file of @size bytes, but for its root hash. */
static void fill_descriptor(const struct merkle_tree *t, uint8_t *desc,
			    uint64_t size)
{
	memset(desc, 0, DESC_SIZE);
	desc[0] = 1;			/* version */
	desc[1] = (uint8_t)t->alg->id;	/* hash_algorithm */
	desc[2] = 12;			/* log2 of the block size */
	for (int b = 0; b < 8; b++)	/* le64 data_size */
		desc[DESC_SIZE_OFF + b] = (uint8_t)(size >> (8 * b));
}

int merkle_tree_final(struct merkle_tree *t,
		      uint8_t digest[VERITY_MAX_DIGEST_SIZE])
{
	uint8_t desc[DESC_SIZE];
	size_t ds = t->alg->digest_size;

	fill_descriptor(t, desc, t->size);
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
	return hash_padded(t, desc, DESC_SIZE, DESC_SIZE, digest);
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

/*
 * Hashes of one size waiting for a partner: each request is held until a
 * second comes, then both are hashed at once. A request must not read
 * what a held one will write: callers flush between the levels.
 */
struct pairing {
	struct merkle_tree *t;
	size_t total;
	const uint8_t *in;	/* the held request, if any */
	size_t len;
	uint8_t *out;
	int rc;
};

static void pair_hash(struct pairing *q, const uint8_t *in, size_t len,
		      uint8_t *out)
{
	if (!q->in) {
		q->in = in;
		q->len = len;
		q->out = out;
		return;
	}
	q->rc |= hash_two(q->t, q->in, q->len, in, len, q->total, q->out, out);
	q->in = NULL;
}

static void pair_flush(struct pairing *q)
{
	if (q->in)
		q->rc |= hash_padded(q->t, q->in, q->len, q->total, q->out);
	q->in = NULL;
}

/* Data blocks of a file whose tree has at most one level above them. */
static size_t two_level_blocks(const struct merkle_tree *t, size_t size)
{
	size_t blocks = (size + VERITY_BLOCK_SIZE - 1) / VERITY_BLOCK_SIZE;

	return blocks * t->alg->digest_size <= VERITY_BLOCK_SIZE ? blocks : 0;
}

/* A file's share of the scratch: its descriptor, then its level of hashes. */
static size_t scratch_share(const struct merkle_tree *t, size_t blocks)
{
	return DESC_SIZE + (blocks > 1 ? blocks * t->alg->digest_size : 0);
}

/*
 * In three rounds over all the files, each round's hashes paired across
 * files: the data blocks (into the descriptor's root for a one-block file,
 * else into the level above), then the blocks of that level (into the
 * root), then the descriptors. A file with a taller tree (more than 512
 * KiB with SHA-256) takes the one-file path.
 */
int merkle_tree_digest_many(struct merkle_tree *t, size_t n,
			    const uint8_t *const data[], const size_t size[],
			    uint8_t digest[][VERITY_MAX_DIGEST_SIZE])
{
	size_t ds = t->alg->digest_size, need = 0, at, blocks;
	struct pairing q = { .t = t, .total = VERITY_BLOCK_SIZE };
	uint8_t *desc;

	for (size_t i = 0; i < n; i++)
		need += scratch_share(t, two_level_blocks(t, size[i]));
	if (need > t->scratch_size) {
		uint8_t *s = realloc(t->scratch, need);

		if (!s)
			return -1;
		t->scratch = s;
		t->scratch_size = need;
	}

	at = 0;
	for (size_t i = 0; i < n; i++, at += scratch_share(t, blocks)) {
		uint8_t *hashes;

		blocks = two_level_blocks(t, size[i]);
		desc = t->scratch + at;
		hashes = blocks > 1 ? desc + DESC_SIZE : desc + DESC_ROOT_OFF;
		if (size[i] && !blocks)
			continue;
		fill_descriptor(t, desc, size[i]);
		for (size_t b = 0, off = 0; b < blocks; b++, off += VERITY_BLOCK_SIZE)
			pair_hash(&q, data[i] + off,
				  size[i] - off < VERITY_BLOCK_SIZE ?
				  size[i] - off : VERITY_BLOCK_SIZE,
				  hashes + b * ds);
	}
	pair_flush(&q);

	at = 0;
	for (size_t i = 0; i < n; i++, at += scratch_share(t, blocks)) {
		blocks = two_level_blocks(t, size[i]);
		desc = t->scratch + at;
		if (blocks > 1)
			pair_hash(&q, desc + DESC_SIZE, blocks * ds,
				  desc + DESC_ROOT_OFF);
	}
	pair_flush(&q);

	q.total = DESC_SIZE;
	at = 0;
	for (size_t i = 0; i < n; i++, at += scratch_share(t, blocks)) {
		blocks = two_level_blocks(t, size[i]);
		desc = t->scratch + at;
		if (size[i] && !blocks)
			q.rc |= merkle_tree_digest(t, data[i], size[i], digest[i]);
		else
			pair_hash(&q, desc, DESC_SIZE, digest[i]);
	}
	pair_flush(&q);
	return q.rc ? -1 : 0;
}
