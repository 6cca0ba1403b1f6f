/* SPDX-License-Identifier: MIT */
/*
 * SHA-256 of two messages at once, with the x86 SHA extensions. The 64
 * rounds of one message are a chain of dependent sha256rnds2 instructions,
 * so one message runs at their latency and leaves the unit idle between
 * them; a second message's chain, interleaved, fills those gaps. fs-verity
 * hashes thousands of independent 4096-byte blocks (and one descriptor per
 * file), so a second message is nearly always at hand. On the machine
 * this project builds on, Merkle trees built this way were faster than
 * with OpenSSL's one-message code, more so on blocks already in the cache
 * (bench/README.md); bench/split-sign-bench shows both on whole packages.
 * Linux's dm-verity interleaves pairs of blocks the same way
 * (sha256_finup_2x); how much that gains depends on the core (the latency
 * of its sha256rnds2), and here it is modest.
 *
 * Every message here is @len bytes of data followed by zeros up to @total
 * bytes, which is how fs-verity pads a file's last block and a level's
 * last block: the zeros are never copied or stored.
 */
#ifndef RPMVERITY_SHA256_PAIR_H
#define RPMVERITY_SHA256_PAIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SHA256_PAIR_DIGEST_SIZE	32

/*
 * Whether this CPU has the SHA extensions and the environment does not
 * turn them off (RPMVERITY_SHA256=openssl, for comparing with OpenSSL's
 * code in benchmarks and testing the other path). Callers fall back to
 * OpenSSL when false; the functions below must not be called then.
 */
bool sha256_pair_available(void);

/*
 * The SHA-256 digests of two messages of @total bytes each: @alen bytes at
 * @a then zeros, and @blen bytes at @b then zeros. @total is a multiple of
 * 64, and @alen and @blen are at most @total.
 */
void sha256_pair(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen,
		 size_t total, uint8_t out_a[SHA256_PAIR_DIGEST_SIZE],
		 uint8_t out_b[SHA256_PAIR_DIGEST_SIZE]);

/* One such message alone, for the odd one out. */
void sha256_one(const uint8_t *a, size_t alen, size_t total,
		uint8_t out[SHA256_PAIR_DIGEST_SIZE]);

#endif
