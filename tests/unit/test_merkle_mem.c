// SPDX-License-Identifier: MIT
/*
 * The in-memory Merkle tree (signer/merkle_mem.c) against libfsverity,
 * which the signer used for every file before: same digest for sizes
 * around each block and level boundary, both algorithms.
 */
#include <errno.h>
#include <libfsverity.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "merkle_mem.h"

static int failures;

#define CHECK(cond) do { \
	if (!(cond)) { \
		fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
		failures++; \
	} \
} while (0)

struct src {
	const uint8_t *data;
	size_t left;
};

static int read_src(void *opaque, void *buf, size_t count)
{
	struct src *s = opaque;

	if (count > s->left)
		return -EIO;
	memcpy(buf, s->data, count);
	s->data += count;
	s->left -= count;
	return 0;
}

static void reference(const struct verity_hash_alg *alg, const uint8_t *data,
		      size_t size, uint8_t *out)
{
	struct libfsverity_merkle_tree_params params = {
		.version = 1, .hash_algorithm = alg->id,
		.file_size = size, .block_size = VERITY_BLOCK_SIZE,
	};
	struct libfsverity_digest *d = NULL;
	struct src s = { data, size };

	if (libfsverity_compute_digest(&s, read_src, &params, &d) != 0) {
		fprintf(stderr, "libfsverity failed at %zu bytes\n", size);
		failures++;
		return;
	}
	memcpy(out, d->digest, d->digest_size);
	free(d);
}

int main(void)
{
	static const size_t sizes[] = {
		1, 100, 4095, 4096, 4097, 8191, 8192, 65536, 131072,
		64 * 4096, 64 * 4096 + 1, 128 * 4096, 128 * 4096 + 1,
		129 * 4096 - 7, 1000000, MERKLE_MEM_MAX,
	};
	uint8_t *data = malloc(MERKLE_MEM_MAX);
	unsigned int seed = 1;

	if (!data)
		return 1;
	for (size_t i = 0; i < MERKLE_MEM_MAX; i++)
		data[i] = (uint8_t)((seed = seed * 1103515245u + 12345u) >> 16);
	for (unsigned int id = 1; id <= 2; id++) {
		const struct verity_hash_alg *alg = verity_hash_alg_by_id(id);
		struct merkle_hasher h;

		CHECK(alg && merkle_hasher_init(&h, alg) == 0);
		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			uint8_t want[VERITY_MAX_DIGEST_SIZE] = { 0 };
			uint8_t got[VERITY_MAX_DIGEST_SIZE] = { 0 };

			reference(alg, data, sizes[i], want);
			CHECK(merkle_mem_digest(&h, data, sizes[i], got) == 0);
			if (memcmp(want, got, alg->digest_size) != 0) {
				fprintf(stderr, "%s: digest differs at %zu bytes\n",
					alg->name, sizes[i]);
				failures++;
			}
		}
		/* Out of range: refused, not read past. */
		{
			uint8_t got[VERITY_MAX_DIGEST_SIZE];

			CHECK(merkle_mem_digest(&h, data, 0, got) == -1);
			CHECK(merkle_mem_digest(&h, data, MERKLE_MEM_MAX + 1, got) == -1);
		}
		merkle_hasher_free(&h);
	}
	free(data);
	if (failures)
		fprintf(stderr, "%d failures\n", failures);
	return failures ? 1 : 0;
}
