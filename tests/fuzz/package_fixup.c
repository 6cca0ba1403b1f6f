// SPDX-License-Identifier: MIT
/*
 * Makes a mutated package self-consistent where the signer checks it (see
 * package_harness.h): sizes, the payload digest and the header digests.
 * The bytes are patched where the tags already are, so
 * the fuzzer's mutations stay in place and nothing is re-laid out.
 */
#include "package_harness.h"

#include <stdio.h>
#include <string.h>
#include <openssl/sha.h>
#include <rpm/rpmtag.h>

#include "rpm_tags.h"

#define LEAD_SIZE	96
#define INTRO_SIZE	16
#define ENTRY_SIZE	16

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (24 - 8 * i));
}

/* @len bytes as lower-case hex at @p, without the terminating NUL. */
static void put_hex(uint8_t *p, const uint8_t *md, size_t len)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < len; i++) {
		p[2 * i] = (uint8_t)digits[md[i] >> 4];
		p[2 * i + 1] = (uint8_t)digits[md[i] & 15];
	}
}

struct hdr {
	uint8_t *index, *data;
	uint32_t il, dl;
	size_t end;		/* offset of the first byte after it */
};

static int parse_header(uint8_t *buf, size_t size, size_t off, struct hdr *h)
{
	if (off > size || size - off < INTRO_SIZE)
		return -1;
	h->il = get32(buf + off + 8);
	h->dl = get32(buf + off + 12);
	if (h->il > 0xffff || h->dl > 0x0fffffff ||
	    size - off - INTRO_SIZE < (size_t)h->il * ENTRY_SIZE + h->dl)
		return -1;
	h->index = buf + off + INTRO_SIZE;
	h->data = h->index + (size_t)h->il * ENTRY_SIZE;
	h->end = off + INTRO_SIZE + (size_t)h->il * ENTRY_SIZE + h->dl;
	return 0;
}

/* Where tag @tag's value of @len bytes is, or NULL. */
static uint8_t *tag_data(const struct hdr *h, uint32_t tag, size_t len)
{
	for (uint32_t i = 0; i < h->il; i++) {
		const uint8_t *e = h->index + (size_t)i * ENTRY_SIZE;
		uint32_t off = get32(e + 8);

		if (get32(e) == tag && off <= h->dl && h->dl - off >= len)
			return h->data + off;
	}
	return NULL;
}

void package_fixup(uint8_t *buf, size_t size)
{
	struct hdr sig, main;
	size_t header_start;
	uint8_t *p;

	if (size < LEAD_SIZE || parse_header(buf, size, LEAD_SIZE, &sig))
		return;
	header_start = (sig.end + 7) & ~(size_t)7;
	if (header_start > size)
		return;
	if ((p = tag_data(&sig, RPMSIGTAG_SIZE, 4)) != NULL)
		put32(p, (uint32_t)(size - header_start));
	if ((p = tag_data(&sig, RPMSIGTAG_LONGSIZE, 8)) != NULL) {
		put32(p, (uint32_t)((uint64_t)(size - header_start) >> 32));
		put32(p + 4, (uint32_t)(size - header_start));
	}
	if (parse_header(buf, size, header_start, &main))
		return;
	p = tag_data(&main, RV_TAG_PAYLOAD_ALGO, 4);
	if (p && get32(p) == RV_HASHALGO_SHA256) {
		p = tag_data(&main, RV_TAG_PAYLOAD_SHA256, 2 * SHA256_DIGEST_LENGTH + 1);
		if (p && p[2 * SHA256_DIGEST_LENGTH] == '\0') {
			uint8_t md[SHA256_DIGEST_LENGTH];

			SHA256(buf + main.end, size - main.end, md);
			put_hex(p, md, SHA256_DIGEST_LENGTH);
		}
	}
	/* Then the signature header's digests of the main header, as changed. */
	p = tag_data(&sig, RPMSIGTAG_SHA256, 2 * SHA256_DIGEST_LENGTH + 1);
	if (p && p[2 * SHA256_DIGEST_LENGTH] == '\0') {
		uint8_t md[SHA256_DIGEST_LENGTH];

		SHA256(buf + header_start, main.end - header_start, md);
		put_hex(p, md, SHA256_DIGEST_LENGTH);
	}
	p = tag_data(&sig, RPMSIGTAG_SHA1, 2 * SHA_DIGEST_LENGTH + 1);
	if (p && p[2 * SHA_DIGEST_LENGTH] == '\0') {
		uint8_t md[SHA_DIGEST_LENGTH];

		SHA1(buf + header_start, main.end - header_start, md);
		put_hex(p, md, SHA_DIGEST_LENGTH);
	}
}
