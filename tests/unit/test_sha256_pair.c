// SPDX-License-Identifier: MIT
/*
 * lib/digest/sha256_pair.c against OpenSSL's SHA-256: both functions, every
 * data length from 0 to 300 and around each 64-byte and 4096-byte
 * boundary, in messages of the two sizes fs-verity hashes (256 and 4096)
 * and a long one, the two messages of a pair of different lengths and
 * contents, and data at odd addresses. Skipped (exit 77) on a CPU without
 * the SHA extensions, where the signer does not call it.
 */
#include <openssl/evp.h>
#include <string.h>

#include "../lib/check.h"
#include "sha256_pair.h"

#define MAX_TOTAL	(3 * 4096)

static uint8_t data[MAX_TOTAL + 64], zeros[MAX_TOTAL];

static void reference(const uint8_t *m, size_t len, size_t total, uint8_t *out)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();

	CHECK(ctx && EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) == 1 &&
	      EVP_DigestUpdate(ctx, m, len) == 1 &&
	      EVP_DigestUpdate(ctx, zeros, total - len) == 1 &&
	      EVP_DigestFinal_ex(ctx, out, NULL) == 1);
	EVP_MD_CTX_free(ctx);
}

static void one_length(size_t len, size_t total)
{
	const uint8_t *a = data + 1, *b = data + 64 + (len % 7);
	size_t blen = total - len;	/* the partner: another length */
	uint8_t want_a[32], want_b[32], got_a[32], got_b[32], got_one[32];

	reference(a, len, total, want_a);
	reference(b, blen, total, want_b);
	sha256_pair(a, len, b, blen, total, got_a, got_b);
	sha256_one(a, len, total, got_one);
	CHECK(memcmp(want_a, got_a, 32) == 0);
	CHECK(memcmp(want_b, got_b, 32) == 0);
	CHECK(memcmp(want_a, got_one, 32) == 0);
	if (memcmp(want_a, got_a, 32) || memcmp(want_b, got_b, 32) ||
	    memcmp(want_a, got_one, 32))
		fprintf(stderr, "  differs: %zu and %zu of %zu bytes\n", len,
			blen, total);
}

int main(void)
{
	static const size_t totals[] = { 64, 256, 4096, MAX_TOTAL };
	unsigned int seed = 7;

	if (!sha256_pair_available()) {
		return check_skip("no SHA extensions here (or RPMVERITY_SHA256=openssl)");
	}
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)((seed = seed * 1103515245u + 12345u) >> 16);
	for (size_t t = 0; t < sizeof(totals) / sizeof(totals[0]); t++) {
		size_t total = totals[t];

		for (size_t len = 0; len <= total && len <= 300; len++)
			one_length(len, total);
		for (size_t edge = 64; edge <= total; edge += edge < 4096 ? 64 : 4096)
			for (size_t len = edge - 2; len <= edge + 2 && len <= total; len++)
				one_length(len, total);
	}
	return check_report();
}
