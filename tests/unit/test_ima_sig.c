// SPDX-License-Identifier: MIT
/* Unit tests for common/ima_sig.c: the IMA sigv3 value and its hex form. */
#include <string.h>

#include "../lib/check.h"
#include "hex.h"
#include "ima_sig.h"

/* A value laid out by hand from struct signature_v2_hdr. */
static const uint8_t sample[] = {
	6, 3, 4,		/* IMA_VERITY_DIGSIG, version 3, sha256 */
	0xde, 0xad, 0xbe, 0xef,	/* key id, big-endian */
	0x00, 0x04,		/* signature size */
	0x11, 0x22, 0x33, 0x44,
};

static void test_parse(void)
{
	struct ima_sig s;

	CHECK(ima_sig_parse(sample, sizeof(sample), &s) == IMA_SIG_OK);
	CHECK(s.type == 6 && s.version == 3 && s.hash_algo == 4);
	CHECK(s.keyid == 0xdeadbeef);
	CHECK(s.sig_size == 4);
	CHECK(s.sig == sample + 9);
}

static void test_parse_refuses(void)
{
	uint8_t v[sizeof(sample) + 1];
	struct ima_sig s;

	for (size_t n = 0; n < IMA_SIG_HDR_SIZE; n++)
		CHECK(ima_sig_parse(sample, n, &s) == IMA_SIG_ETRUNC);
	/* the kernel wants sig_size to cover exactly the rest */
	CHECK(ima_sig_parse(sample, sizeof(sample) - 1, &s) == IMA_SIG_ESIZE);
	memcpy(v, sample, sizeof(sample));
	v[sizeof(sample)] = 0;
	CHECK(ima_sig_parse(v, sizeof(v), &s) == IMA_SIG_ESIZE);
	CHECK(ima_sig_parse(sample, IMA_SIG_HDR_SIZE, &s) == IMA_SIG_ESIZE);
	memcpy(v, sample, sizeof(sample));
	v[0] = 3;		/* EVM_IMA_XATTR_DIGSIG: a sigv2 file-hash signature */
	CHECK(ima_sig_parse(v, sizeof(sample), &s) == IMA_SIG_ETYPE);
	memcpy(v, sample, sizeof(sample));
	v[1] = 2;
	CHECK(ima_sig_parse(v, sizeof(sample), &s) == IMA_SIG_EVERSION);
	memcpy(v, sample, sizeof(sample));
	v[2] = 5;		/* sha384: no fs-verity digest has it */
	CHECK(ima_sig_parse(v, sizeof(sample), &s) == IMA_SIG_EALGO);
	v[2] = 6;
	CHECK(ima_sig_parse(v, sizeof(sample), &s) == IMA_SIG_OK);
	CHECK(strcmp(ima_sig_strerror(IMA_SIG_ETYPE), "valid") != 0);
}

static void test_write(void)
{
	uint8_t sigbytes[IMA_SIG_MAX_SIZE + 1] = { 0x11, 0x22, 0x33, 0x44 };
	struct ima_sig s = { .type = 6, .version = 3, .hash_algo = 4,
			     .keyid = 0xdeadbeef, .sig_size = 4,
			     .sig = sigbytes };
	uint8_t out[IMA_VALUE_MAX + 1];

	CHECK(ima_sig_write(&s, out, sizeof(out)) == sizeof(sample));
	CHECK(memcmp(out, sample, sizeof(sample)) == 0);
	CHECK(ima_sig_write(&s, out, sizeof(sample) - 1) == 0);
	s.sig_size = 0;
	CHECK(ima_sig_write(&s, out, sizeof(out)) == 0);
	s.sig_size = IMA_SIG_MAX_SIZE + 1;
	CHECK(ima_sig_write(&s, out, sizeof(out)) == 0);
	s.sig_size = IMA_SIG_MAX_SIZE;
	CHECK(ima_sig_write(&s, out, sizeof(out)) == IMA_VALUE_MAX);
	CHECK(out[7] == 0x04 && out[8] == 0x00);
}

static void test_file_id(void)
{
	uint8_t digest[64], out[IMA_FILE_ID_MAX];

	for (int i = 0; i < 64; i++)
		digest[i] = (uint8_t)i;
	CHECK(ima_file_id(IMA_HASH_SHA256, digest, out) == 34);
	CHECK(out[0] == 6 && out[1] == 4);
	CHECK(memcmp(out + 2, digest, 32) == 0);
	CHECK(ima_file_id(IMA_HASH_SHA512, digest, out) == 66);
	CHECK(out[1] == 6 && memcmp(out + 2, digest, 64) == 0);
	CHECK(ima_file_id(2, digest, out) == 0);	/* sha1 */
	CHECK(ima_hash_algo_of_verity(1) == IMA_HASH_SHA256);
	CHECK(ima_hash_algo_of_verity(2) == IMA_HASH_SHA512);
	CHECK(ima_hash_algo_of_verity(3) == 0);
}

static void test_hex(void)
{
	uint8_t buf[IMA_VALUE_MAX];
	char hex[2 * sizeof(sample) + 1];
	struct ima_sig s;

	hex_encode(sample, sizeof(sample), hex);
	CHECK(strcmp(hex, "060304deadbeef000411223344") == 0);
	CHECK(ima_hex_decode(hex, buf, sizeof(buf)) == (ssize_t)sizeof(sample));
	CHECK(memcmp(buf, sample, sizeof(sample)) == 0);
	CHECK(ima_hex_decode("0603", buf, 1) == IMA_SIG_ESIZE);
	CHECK(ima_hex_decode("DEADbeef", buf, sizeof(buf)) == 4 && buf[0] == 0xde);
	CHECK(ima_hex_decode("abc", buf, sizeof(buf)) == IMA_SIG_EHEX);
	CHECK(ima_hex_decode("0g", buf, sizeof(buf)) == IMA_SIG_EHEX);
	CHECK(ima_hex_decode("", buf, sizeof(buf)) == 0);
	CHECK(ima_sig_parse_hex(hex, buf, &s) == IMA_SIG_OK && s.keyid == 0xdeadbeef);
	CHECK(ima_sig_parse_hex("06 3", buf, &s) == IMA_SIG_EHEX);
	CHECK(ima_sig_parse_hex("", buf, &s) == IMA_SIG_ETRUNC);
}

int main(void)
{
	test_parse();
	test_parse_refuses();
	test_write();
	test_file_id();
	test_hex();
	return check_report();
}
