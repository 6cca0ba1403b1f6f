// SPDX-License-Identifier: MIT
/* The fs-verity facts shared by signer and plugin; see verity_format.h. */
#include "verity_format.h"

#include <string.h>

static const struct verity_hash_alg hash_algs[] = {
	{ .id = 1, .digest_size = 32, .name = "sha256" },
	{ .id = 2, .digest_size = 64, .name = "sha512" },
};

const struct verity_hash_alg *verity_hash_alg_by_id(unsigned int id)
{
	for (size_t i = 0; i < sizeof(hash_algs) / sizeof(hash_algs[0]); i++)
		if (hash_algs[i].id == id)
			return &hash_algs[i];
	return NULL;
}

const struct verity_hash_alg *verity_hash_alg_by_name(const char *name)
{
	for (size_t i = 0; i < sizeof(hash_algs) / sizeof(hash_algs[0]); i++)
		if (strcmp(hash_algs[i].name, name) == 0)
			return &hash_algs[i];
	return NULL;
}

size_t verity_format_digest(const struct verity_hash_alg *alg,
			    const uint8_t *digest,
			    uint8_t out[VERITY_FORMATTED_DIGEST_MAX])
{
	memcpy(out, "FSVerity", 8);
	out[8] = alg->id & 0xff;
	out[9] = alg->id >> 8;
	out[10] = alg->digest_size & 0xff;
	out[11] = alg->digest_size >> 8;
	memcpy(out + 12, digest, alg->digest_size);
	return 12 + (size_t)alg->digest_size;
}

/*
 * The DER tag-length header at p (len bytes available): its size in *hdr and
 * the length it announces in *body. False if it is cut off or uses more
 * than 4 length bytes (no signature the kernel takes is that large).
 */
static bool der_header(const uint8_t *p, size_t len, size_t *hdr, size_t *body)
{
	size_t n;

	if (len < 2)
		return false;
	if (p[1] < 0x80) {		/* short form */
		*hdr = 2;
		*body = p[1];
		return true;
	}
	n = p[1] & 0x7f;		/* long form: 1 to 4 length bytes */
	if (n == 0 || n > 4 || len < 2 + n)
		return false;
	*body = 0;
	for (size_t i = 0; i < n; i++)
		*body = *body << 8 | p[2 + i];
	*hdr = 2 + n;
	return true;
}

ssize_t verity_sig_length(const uint8_t *entry, size_t len)
{
	size_t hdr, body;

	if (len == 0)
		return 0;
	if (entry[0] != 0x30) {		/* not a DER SEQUENCE */
		for (size_t i = 0; i < len; i++)
			if (entry[i])
				return -1;
		return 0;
	}
	if (!der_header(entry, len, &hdr, &body))
		return -1;
	if (body > len - hdr || hdr + body > VERITY_MAX_SIG_SIZE)
		return -1;
	return (ssize_t)(hdr + body);
}

bool verity_sig_is_signed_data(const uint8_t *der, size_t len)
{
	/* OBJECT IDENTIFIER 1.2.840.113549.1.7.2, pkcs7-signedData */
	static const uint8_t signed_data[] = {
		0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02
	};
	size_t hdr, body, inner_hdr, inner_body;

	if (len < 1 || der[0] != 0x30 || !der_header(der, len, &hdr, &body) ||
	    hdr + body != len)
		return false;
	der += hdr;
	len = body;
	if (len < sizeof(signed_data) + 1 ||
	    memcmp(der, signed_data, sizeof(signed_data)) != 0)
		return false;
	der += sizeof(signed_data);
	len -= sizeof(signed_data);
	/* content [0] EXPLICIT, filling the rest of the ContentInfo */
	return der[0] == 0xa0 && der_header(der, len, &inner_hdr, &inner_body) &&
	       inner_hdr + inner_body == len;
}

/* A DER cursor: what is left of the enclosing element's content. */
struct der {
	const uint8_t *p;
	size_t len;
};

/*
 * Take the next element off @d if its tag is @tag: its content in
 * @content, the whole element in @whole (either may be NULL).
 */
static bool der_take(struct der *d, uint8_t tag, struct der *content,
		     struct der *whole)
{
	size_t hdr, body;

	if (d->len < 1 || d->p[0] != tag || !der_header(d->p, d->len, &hdr, &body) ||
	    body > d->len - hdr)
		return false;
	if (content)
		*content = (struct der){ d->p + hdr, body };
	if (whole)
		*whole = (struct der){ d->p, hdr + body };
	d->p += hdr + body;
	d->len -= hdr + body;
	return true;
}

/* Skip an OPTIONAL element with tag @tag; false only if it is malformed. */
static bool der_skip_optional(struct der *d, uint8_t tag)
{
	return d->len < 1 || d->p[0] != tag || der_take(d, tag, NULL, NULL);
}

bool verity_sig_parts(const uint8_t *der, size_t len,
		      struct verity_sig_parts *out)
{
	/* OBJECT IDENTIFIER 1.2.840.113549.1.7.2, pkcs7-signedData */
	static const uint8_t signed_data[] = {
		0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02
	};
	struct der top = { der, len }, ci, x, sd, set, si, id, alg, oid, sig;

	if (!der_take(&top, 0x30, &ci, NULL) || top.len ||
	    !der_take(&ci, 0x06, &x, NULL) || x.len != sizeof(signed_data) ||
	    memcmp(x.p, signed_data, sizeof(signed_data)) != 0 ||
	    !der_take(&ci, 0xa0, &x, NULL) || ci.len ||
	    !der_take(&x, 0x30, &sd, NULL) || x.len)
		return false;
	/* SignedData: version, digestAlgorithms, contentInfo, [0] certificates,
	 * [1] crls, signerInfos holding exactly one SignerInfo. */
	if (!der_take(&sd, 0x02, NULL, NULL) || !der_take(&sd, 0x31, NULL, NULL) ||
	    !der_take(&sd, 0x30, NULL, NULL) || !der_skip_optional(&sd, 0xa0) ||
	    !der_skip_optional(&sd, 0xa1) || !der_take(&sd, 0x31, &set, NULL) ||
	    sd.len || !der_take(&set, 0x30, &si, NULL) || set.len)
		return false;
	/* SignerInfo: version, issuerAndSerialNumber, digestAlgorithm,
	 * [0] authenticatedAttributes, digestEncryptionAlgorithm,
	 * encryptedDigest, [1] unauthenticatedAttributes. */
	if (!der_take(&si, 0x02, NULL, NULL) || !der_take(&si, 0x30, &id, NULL) ||
	    !der_take(&si, 0x30, &alg, NULL) ||
	    !der_take(&alg, 0x06, NULL, &oid))
		return false;
	out->has_attributes = si.len > 0 && si.p[0] == 0xa0;
	if (!der_skip_optional(&si, 0xa0) || !der_take(&si, 0x30, NULL, NULL) ||
	    !der_take(&si, 0x04, &sig, NULL) || !der_skip_optional(&si, 0xa1) ||
	    si.len || sig.len == 0)
		return false;
	out->signer_id = id.p;
	out->signer_id_len = id.len;
	out->digest_oid = oid.p;
	out->digest_oid_len = oid.len;
	out->sig = sig.p;
	out->sig_len = sig.len;
	return true;
}
