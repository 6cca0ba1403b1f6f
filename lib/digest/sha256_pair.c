// SPDX-License-Identifier: MIT
/*
 * See sha256_pair.h. The compression function is FIPS 180-4's, in the
 * form the SHA extensions compute it: the state split into ABEF and CDGH
 * registers, four rounds' message words a register, two rounds per
 * sha256rnds2, the schedule by sha256msg1/sha256msg2. The two messages'
 * instruction chains are written side by side so the compiler can
 * interleave them; neither depends on the other.
 */
#include "sha256_pair.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

#define SHA_TARGET __attribute__((target("sha,sse4.1,ssse3")))
#define SHA_INLINE SHA_TARGET static inline __attribute__((always_inline))
/*
 * Unrolled, the schedule words stay in registers rather than an array on
 * the stack, which was faster for one message and for two, with gcc and
 * clang alike (bench/README.md).
 */
#define UNROLL_GROUPS _Pragma("GCC unroll 16")

static const uint32_t round_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static const uint8_t zero_block[64];

/* The state, as the SHA extensions hold it. */
struct state {
	__m128i abef, cdgh;
};

/* The initial hash value: lanes (low to high) F E B A and H G D C. */
SHA_INLINE struct state state_init(void)
{
	struct state s = {
		_mm_set_epi32(0x6a09e667, (int)0xbb67ae85, 0x510e527f,
			      (int)0x9b05688c),
		_mm_set_epi32(0x3c6ef372, (int)0xa54ff53a, 0x1f83d9ab,
			      0x5be0cd19),
	};

	return s;
}

/* The digest: A..H as big-endian words. */
SHA_INLINE void state_store(struct state s, uint8_t out[32])
{
	const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL,
					     0x0405060700010203LL);
	__m128i abef = _mm_shuffle_epi32(s.abef, 0x1B);	/* lanes A B E F */
	__m128i ghcd = _mm_shuffle_epi32(s.cdgh, 0xB1);	/* lanes G H C D */
	__m128i abcd = _mm_blend_epi16(abef, ghcd, 0xF0);
	__m128i efgh = _mm_alignr_epi8(ghcd, abef, 8);

	_mm_storeu_si128((__m128i *)out, _mm_shuffle_epi8(abcd, bswap));
	_mm_storeu_si128((__m128i *)(out + 16), _mm_shuffle_epi8(efgh, bswap));
}

/* A 64-byte block's sixteen words, big-endian, four a register. */
SHA_INLINE void load_words(const uint8_t *p, __m128i w[4])
{
	const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL,
					     0x0405060700010203LL);

	for (int i = 0; i < 4; i++)
		w[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * i)),
					bswap);
}

/* The next four schedule words from the last sixteen, oldest first. */
SHA_INLINE __m128i schedule(__m128i w0, __m128i w1, __m128i w2, __m128i w3)
{
	__m128i x = _mm_sha256msg1_epu32(w0, w1);

	x = _mm_add_epi32(x, _mm_alignr_epi8(w3, w2, 4));
	return _mm_sha256msg2_epu32(x, w3);
}

/* Rounds 4g to 4g+3 with their four message words. */
SHA_INLINE void rounds(struct state *s, __m128i w, int g)
{
	__m128i m = _mm_add_epi32(w, _mm_loadu_si128((const __m128i *)&round_k[4 * g]));

	s->cdgh = _mm_sha256rnds2_epu32(s->cdgh, s->abef, m);
	m = _mm_shuffle_epi32(m, 0x0E);
	s->abef = _mm_sha256rnds2_epu32(s->abef, s->cdgh, m);
}

SHA_INLINE void compress_one(struct state *s, const uint8_t *p)
{
	struct state in = *s;
	__m128i w[4];

	load_words(p, w);
	UNROLL_GROUPS
	for (int g = 0; g < 16; g++) {
		if (g >= 4)
			w[g & 3] = schedule(w[g & 3], w[(g + 1) & 3],
					    w[(g + 2) & 3], w[(g + 3) & 3]);
		rounds(s, w[g & 3], g);
	}
	s->abef = _mm_add_epi32(s->abef, in.abef);
	s->cdgh = _mm_add_epi32(s->cdgh, in.cdgh);
}

/* Two blocks of two messages, their rounds interleaved. */
SHA_INLINE void compress_two(struct state *s, struct state *t,
			     const uint8_t *p, const uint8_t *q)
{
	struct state sin = *s, tin = *t;
	__m128i v[4], w[4];

	load_words(p, v);
	load_words(q, w);
	UNROLL_GROUPS
	for (int g = 0; g < 16; g++) {
		if (g >= 4) {
			v[g & 3] = schedule(v[g & 3], v[(g + 1) & 3],
					    v[(g + 2) & 3], v[(g + 3) & 3]);
			w[g & 3] = schedule(w[g & 3], w[(g + 1) & 3],
					    w[(g + 2) & 3], w[(g + 3) & 3]);
		}
		rounds(s, v[g & 3], g);
		rounds(t, w[g & 3], g);
	}
	s->abef = _mm_add_epi32(s->abef, sin.abef);
	s->cdgh = _mm_add_epi32(s->cdgh, sin.cdgh);
	t->abef = _mm_add_epi32(t->abef, tin.abef);
	t->cdgh = _mm_add_epi32(t->cdgh, tin.cdgh);
}

/* The 64 bytes at @off of @len bytes of data then zeros. */
static inline const uint8_t *block_at(const uint8_t *m, size_t len, size_t off,
				      uint8_t tmp[64])
{
	if (off + 64 <= len)
		return m + off;
	if (off >= len)
		return zero_block;
	memcpy(tmp, m + off, len - off);
	memset(tmp + (len - off), 0, 64 - (len - off));
	return tmp;
}

/* The final block of a message of @total bytes (a multiple of 64). */
static void padding_block(size_t total, uint8_t pad[64])
{
	uint64_t bits = (uint64_t)total * 8;

	memset(pad, 0, 64);
	pad[0] = 0x80;
	for (int i = 0; i < 8; i++)
		pad[63 - i] = (uint8_t)(bits >> (8 * i));
}

SHA_TARGET void sha256_pair(const uint8_t *a, size_t alen, const uint8_t *b,
			    size_t blen, size_t total,
			    uint8_t out_a[SHA256_PAIR_DIGEST_SIZE],
			    uint8_t out_b[SHA256_PAIR_DIGEST_SIZE])
{
	struct state s = state_init(), t = state_init();
	uint8_t ta[64], tb[64], pad[64];

	for (size_t off = 0; off < total; off += 64)
		compress_two(&s, &t, block_at(a, alen, off, ta),
			     block_at(b, blen, off, tb));
	padding_block(total, pad);
	compress_two(&s, &t, pad, pad);
	state_store(s, out_a);
	state_store(t, out_b);
}

SHA_TARGET void sha256_one(const uint8_t *a, size_t alen, size_t total,
			   uint8_t out[SHA256_PAIR_DIGEST_SIZE])
{
	struct state s = state_init();
	uint8_t ta[64], pad[64];

	for (size_t off = 0; off < total; off += 64)
		compress_one(&s, block_at(a, alen, off, ta));
	padding_block(total, pad);
	compress_one(&s, pad);
	state_store(s, out);
}

static bool cpu_has_sha(void)
{
	unsigned int eax, ebx, ecx, edx;

	if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) ||
	    !(ecx & bit_SSE4_1) || !(ecx & bit_SSSE3))
		return false;
	return __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) &&
	       (ebx & bit_SHA);
}

#else	/* no SHA extensions to use: OpenSSL does it all */

static bool cpu_has_sha(void)
{
	return false;
}

void sha256_pair(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen,
		 size_t total, uint8_t out_a[SHA256_PAIR_DIGEST_SIZE],
		 uint8_t out_b[SHA256_PAIR_DIGEST_SIZE])
{
	(void)a, (void)alen, (void)b, (void)blen, (void)total;
	(void)out_a, (void)out_b;
	abort();
}

void sha256_one(const uint8_t *a, size_t alen, size_t total,
		uint8_t out[SHA256_PAIR_DIGEST_SIZE])
{
	(void)a, (void)alen, (void)total, (void)out;
	abort();
}
#endif

static bool available;
static pthread_once_t probed = PTHREAD_ONCE_INIT;

static void probe(void)
{
	const char *env = getenv("RPMVERITY_SHA256");

	available = cpu_has_sha() && !(env && strcmp(env, "openssl") == 0);
}

bool sha256_pair_available(void)
{
	pthread_once(&probed, probe);
	return available;
}
