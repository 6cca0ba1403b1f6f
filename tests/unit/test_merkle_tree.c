// SPDX-License-Identifier: MIT
/*
 * The signer's Merkle tree builder (lib/digest/merkle_tree.c) against
 * libfsverity, which the signer used for every file before: the same
 * digest for sizes around each block and level boundary (up to three
 * levels above the data), both algorithms, fed whole and in pieces of
 * sizes that do not line up with blocks, and many files at once
 * (merkle_tree_digest_many) in an odd and an even number.
 */
#include <errno.h>
#include <libfsverity.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/check.h"
#include "merkle_tree.h"

#define PATTERN	(1024 * 1024 + 7)	/* content repeats with this period */

static uint8_t *pattern;

static int read_pattern(void *opaque, void *buf, size_t count)
{
	uint64_t *pos = opaque;
	uint8_t *out = buf;

	while (count) {
		size_t off = (size_t)(*pos % PATTERN), n = PATTERN - off;

		if (n > count)
			n = count;
		memcpy(out, pattern + off, n);
		out += n;
		count -= n;
		*pos += n;
	}
	return 0;
}

static void reference(const struct verity_hash_alg *alg, uint64_t size,
		      uint8_t *out)
{
	struct libfsverity_merkle_tree_params params = {
		.version = 1, .hash_algorithm = alg->id,
		.file_size = size, .block_size = VERITY_BLOCK_SIZE,
	};
	struct libfsverity_digest *d = NULL;
	uint64_t pos = 0;

	CHECK(libfsverity_compute_digest(&pos, read_pattern, &params, &d) == 0);
	if (!d)
		return;
	memcpy(out, d->digest, d->digest_size);
	free(d);
}

/* The pattern's first @size bytes fed in pieces of @piece bytes. */
static int pieces(struct merkle_tree *t, uint64_t size, size_t piece,
		  uint8_t *out)
{
	uint64_t pos = 0;

	merkle_tree_start(t);
	while (pos < size) {
		size_t off = (size_t)(pos % PATTERN), n = PATTERN - off;

		if (n > piece)
			n = piece;
		if (n > size - pos)
			n = (size_t)(size - pos);
		if (merkle_tree_update(t, pattern + off, n))
			return -1;
		pos += n;
	}
	return merkle_tree_final(t, out);
}

static void compare(const struct verity_hash_alg *alg, const char *how,
		    uint64_t size, const uint8_t *want, const uint8_t *got)
{
	CHECK(memcmp(want, got, alg->digest_size) == 0);
	if (memcmp(want, got, alg->digest_size) != 0)
		fprintf(stderr, "  %s, %s: digest differs at %llu bytes\n",
			alg->name, how, (unsigned long long)size);
}

/* All sizes up to the pattern's as one batch, then all but the first. */
static void many(struct merkle_tree *t, const struct verity_hash_alg *alg,
		 const uint64_t *sizes, size_t nsizes)
{
	static uint8_t want[32][VERITY_MAX_DIGEST_SIZE], got[32][VERITY_MAX_DIGEST_SIZE];
	const uint8_t *data[32];
	size_t size[32], n = 0;

	for (size_t i = 0; i < nsizes && n < 32; i++) {
		if (sizes[i] > PATTERN)
			continue;
		data[n] = pattern;
		size[n] = (size_t)sizes[i];
		reference(alg, sizes[i], want[n]);
		n++;
	}
	for (size_t skip = 0; skip < 2; skip++) {
		memset(got, 0, sizeof(got));
		CHECK(merkle_tree_digest_many(t, n - skip, data + skip,
					      size + skip, got + skip) == 0);
		for (size_t i = skip; i < n; i++)
			compare(alg, "many at once", size[i], want[i], got[i]);
	}
}

int main(void)
{
	static const uint64_t sizes[] = {
		0, 1, 100, 4095, 4096, 4097, 8191, 8192, 65536, 131072,
		64 * 4096, 64 * 4096 + 1, 128 * 4096, 128 * 4096 + 1,
		129 * 4096 - 7, 1000000, 4096 * 4096, 4096 * 4096 + 1,
		4097 * 4096 + 3, 16384ull * 4096, 16384ull * 4096 + 4096,
	};
	struct merkle_tree *t = malloc(sizeof(*t));
	unsigned int seed = 1;

	pattern = malloc(PATTERN);
	if (!pattern || !t)
		return 1;
	for (size_t i = 0; i < PATTERN; i++)
		pattern[i] = (uint8_t)((seed = seed * 1103515245u + 12345u) >> 16);
	for (unsigned int id = 1; id <= 2; id++) {
		const struct verity_hash_alg *alg = verity_hash_alg_by_id(id);

		CHECK(alg && merkle_tree_init(t, alg) == 0);
		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			uint8_t want[VERITY_MAX_DIGEST_SIZE] = { 0 };
			uint8_t got[VERITY_MAX_DIGEST_SIZE] = { 0 };
			uint64_t size = sizes[i];

			reference(alg, size, want);
			if (size <= PATTERN) {
				CHECK(merkle_tree_digest(t, pattern, (size_t)size,
							 got) == 0);
				compare(alg, "whole", size, want, got);
			}
			CHECK(pieces(t, size, 128 * 1024, got) == 0);
			compare(alg, "128 KiB pieces", size, want, got);
			if (size < 8 * 1024 * 1024) {
				CHECK(pieces(t, size, 1000, got) == 0);
				compare(alg, "1000-byte pieces", size, want, got);
			}
		}
		many(t, alg, sizes, sizeof(sizes) / sizeof(sizes[0]));
		merkle_tree_free(t);
	}
	free(pattern);
	free(t);
	return check_report();
}
