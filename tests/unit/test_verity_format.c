// SPDX-License-Identifier: MIT
/* Unit tests for common/verity_format.c: the layouts signer and plugin share. */
#include <string.h>

#include "../lib/check.h"
#include "verity_format.h"

static void test_algorithms(void)
{
	CHECK(verity_hash_alg_by_name("sha256")->id == 1);
	CHECK(verity_hash_alg_by_name("sha512")->digest_size == 64);
	CHECK(verity_hash_alg_by_id(2) == verity_hash_alg_by_name("sha512"));
	CHECK(verity_hash_alg_by_id(0) == NULL);
	CHECK(verity_hash_alg_by_id(3) == NULL);
	CHECK(verity_hash_alg_by_name("md5") == NULL);
}

static void test_formatted_digest(void)
{
	uint8_t digest[64], out[VERITY_FORMATTED_DIGEST_MAX];
	const uint8_t head256[12] = { 'F', 'S', 'V', 'e', 'r', 'i', 't', 'y',
				      1, 0, 32, 0 };
	const uint8_t head512[12] = { 'F', 'S', 'V', 'e', 'r', 'i', 't', 'y',
				      2, 0, 64, 0 };

	for (int i = 0; i < 64; i++)
		digest[i] = (uint8_t)(0xa0 + i);
	CHECK(verity_format_digest(verity_hash_alg_by_id(1), digest, out) == 44);
	CHECK(memcmp(out, head256, 12) == 0);
	CHECK(memcmp(out + 12, digest, 32) == 0);
	CHECK(verity_format_digest(verity_hash_alg_by_id(2), digest, out) == 76);
	CHECK(memcmp(out, head512, 12) == 0);
	CHECK(memcmp(out + 12, digest, 64) == 0);
}

static void test_sig_length(void)
{
	uint8_t buf[600];

	memset(buf, 0, sizeof(buf));
	/* rpm's "no signature": all zeros, of any padded length */
	CHECK(verity_sig_length(buf, sizeof(buf)) == 0);
	CHECK(verity_sig_length(buf, 0) == 0);
	/* short form, zero padding after it */
	buf[0] = 0x30;
	buf[1] = 0x03;
	CHECK(verity_sig_length(buf, sizeof(buf)) == 5);
	CHECK(verity_sig_length(buf, 4) == -1);	/* truncated */
	/* long form, as every real signature uses */
	buf[1] = 0x82;
	buf[2] = 0x01;
	buf[3] = 0x8a;
	CHECK(verity_sig_length(buf, sizeof(buf)) == 4 + 0x18a);
	CHECK(verity_sig_length(buf, 4 + 0x189) == -1);
	/* lengths beyond the kernel's limit, or absurd length bytes */
	buf[1] = 0x84;
	buf[2] = 0xff;
	CHECK(verity_sig_length(buf, sizeof(buf)) == -1);
	buf[1] = 0x80;
	CHECK(verity_sig_length(buf, sizeof(buf)) == -1);
	/* not DER, not zeros */
	buf[0] = 'M';
	CHECK(verity_sig_length(buf, sizeof(buf)) == -1);
	memset(buf, 0, sizeof(buf));
	buf[599] = 1;
	CHECK(verity_sig_length(buf, sizeof(buf)) == -1);
}

static void test_signed_data(void)
{
	/* ContentInfo { signedData, [0] { SEQUENCE { INTEGER 1 } } } */
	uint8_t sd[] = {
		0x30, 0x12,
		0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02,
		0xa0, 0x05, 0x30, 0x03, 0x02, 0x01, 0x01,
		0x00,	/* padding, outside the SEQUENCE */
	};
	uint8_t long_form[4 + 11 + 4 + 300] = {
		0x30, 0x82, 0x01, 0x3b,
		0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02,
		0xa0, 0x82, 0x01, 0x2c,
	};
	/* "MAMCAQA=" from the plugin tests: SEQUENCE { INTEGER 0 } */
	const uint8_t not_p7[] = { 0x30, 0x03, 0x02, 0x01, 0x00 };

	CHECK(verity_sig_length(sd, sizeof(sd)) == 20);
	CHECK(verity_sig_is_signed_data(sd, 20));
	CHECK(!verity_sig_is_signed_data(sd, 21));	/* length must match */
	CHECK(!verity_sig_is_signed_data(sd, 19));
	CHECK(verity_sig_is_signed_data(long_form, sizeof(long_form)));
	CHECK(!verity_sig_is_signed_data(not_p7, sizeof(not_p7)));
	CHECK(!verity_sig_is_signed_data(sd, 0));
	sd[12] = 0x01;			/* pkcs7-data, not signedData */
	CHECK(!verity_sig_is_signed_data(sd, 20));
	sd[12] = 0x02;
	sd[13] = 0x30;			/* content not [0] */
	CHECK(!verity_sig_is_signed_data(sd, 20));
	sd[13] = 0xa0;
	sd[14] = 0x04;			/* [0] shorter than what is left */
	CHECK(!verity_sig_is_signed_data(sd, 20));
	sd[14] = 0x05;
	CHECK(verity_sig_is_signed_data(sd, 20));
}

/* Appends tag, short-form length and content; returns the new end. */
static uint8_t *tlv(uint8_t *out, uint8_t tag, const uint8_t *content,
		    size_t len)
{
	out[0] = tag;
	out[1] = (uint8_t)len;
	if (len)
		memmove(out + 2, content, len);
	return out + 2 + len;
}

/*
 * A SignedData of fs-verity's shape, built element by element: one
 * SignerInfo, [0] attributes if @attrs, then @extra_signer SignerInfos more.
 */
static size_t make_signed_data(uint8_t *out, int attrs, int extra_signer)
{
	static const uint8_t sd_oid[] = { 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02 };
	static const uint8_t data_oid[] = { 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x01 };
	static const uint8_t sha256[] = { 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01 };
	static const uint8_t one = 1, serial = 5, sig[3] = { 0xaa, 0xbb, 0xcc };
	uint8_t a[128], b[128], si[128], set[256], sd[384], ci[400], *p, *q;
	size_t set_len;

	p = tlv(a, 0x30, NULL, 0);			/* issuer: empty Name */
	p = tlv(p, 0x02, &serial, 1);
	q = tlv(si, 0x02, &one, 1);			/* version */
	q = tlv(q, 0x30, a, (size_t)(p - a));		/* issuerAndSerialNumber */
	p = tlv(b, 0x06, sha256, sizeof(sha256));
	q = tlv(q, 0x30, b, (size_t)(p - b));		/* digestAlgorithm */
	if (attrs)
		q = tlv(q, 0xa0, NULL, 0);
	q = tlv(q, 0x30, NULL, 0);			/* digestEncryptionAlgorithm */
	q = tlv(q, 0x04, sig, sizeof(sig));
	p = tlv(set, 0x30, si, (size_t)(q - si));
	for (int i = 0; i < extra_signer; i++)
		p = tlv(p, 0x30, si, (size_t)(q - si));
	set_len = (size_t)(p - set);
	q = tlv(sd, 0x02, &one, 1);
	q = tlv(q, 0x31, NULL, 0);			/* digestAlgorithms */
	p = tlv(b, 0x06, data_oid, sizeof(data_oid));
	q = tlv(q, 0x30, b, (size_t)(p - b));		/* contentInfo */
	q = tlv(q, 0x31, set, set_len);			/* signerInfos */
	p = tlv(b, 0x30, sd, (size_t)(q - sd));		/* SignedData */
	q = tlv(ci, 0x06, sd_oid, sizeof(sd_oid));
	q = tlv(q, 0xa0, b, (size_t)(p - b));
	return (size_t)(tlv(out, 0x30, ci, (size_t)(q - ci)) - out);
}

static void test_sig_parts(void)
{
	static const uint8_t id[] = { 0x30, 0x00, 0x02, 0x01, 0x05 };
	static const uint8_t oid[] = { 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01 };
	struct verity_sig_parts parts;
	uint8_t der[512];
	size_t len = make_signed_data(der, 0, 0);

	CHECK(verity_sig_parts(der, len, &parts));
	CHECK(!parts.has_attributes);
	CHECK(parts.signer_id_len == sizeof(id) && !memcmp(parts.signer_id, id, sizeof(id)));
	CHECK(parts.digest_oid_len == sizeof(oid) && !memcmp(parts.digest_oid, oid, sizeof(oid)));
	CHECK(parts.sig_len == 3 && parts.sig[0] == 0xaa && parts.sig[2] == 0xcc);
	CHECK(verity_sig_is_signed_data(der, len));
	/* Every shorter prefix, a byte more, and each tag changed: refused. */
	for (size_t n = 0; n < len; n++)
		CHECK(!verity_sig_parts(der, n, &parts));
	der[len] = 0;
	CHECK(!verity_sig_parts(der, len + 1, &parts));
	for (size_t i = 0; i < len; i++) {
		der[i] ^= 0x01;
		if (i == 0)
			CHECK(!verity_sig_parts(der, len, &parts));
		else
			(void)verity_sig_parts(der, len, &parts);	/* no crash */
		der[i] ^= 0x01;
	}
	len = make_signed_data(der, 1, 0);
	CHECK(verity_sig_parts(der, len, &parts) && parts.has_attributes);
	len = make_signed_data(der, 0, 1);		/* two SignerInfos */
	CHECK(!verity_sig_parts(der, len, &parts));
}

int main(void)
{
	test_algorithms();
	test_formatted_digest();
	test_sig_length();
	test_signed_data();
	test_sig_parts();
	return check_report();
}
