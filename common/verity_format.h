/* SPDX-License-Identifier: MIT */
/*
 * What the signer and the plugin must agree on: the rpm tags that carry
 * fs-verity signatures, the hash algorithms, the Merkle tree parameters and
 * the byte layout the kernel signs and checks.
 */
#ifndef RPMVERITY_VERITY_FORMAT_H
#define RPMVERITY_VERITY_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Signature-header tags, as rpm 4.18 numbers them (RPMSIGTAG_VERITY*). */
#define VERITY_TAG_SIGNATURES	276	/* string array: base64 DER PKCS#7 */
#define VERITY_TAG_ALGO		277	/* int32: FS_VERITY_HASH_ALG_* */

/* Merkle tree parameters rpm uses: version 1, 4096-byte blocks, no salt. */
#define VERITY_BLOCK_SIZE	4096

/* The kernel refuses builtin signatures larger than this. */
#define VERITY_MAX_SIG_SIZE	16128

#define VERITY_MAX_DIGEST_SIZE	64

struct verity_hash_alg {
	uint16_t id;		/* FS_VERITY_HASH_ALG_* */
	uint16_t digest_size;
	const char *name;	/* also OpenSSL's digest name */
};

const struct verity_hash_alg *verity_hash_alg_by_id(unsigned int id);
const struct verity_hash_alg *verity_hash_alg_by_name(const char *name);

/*
 * struct fsverity_formatted_digest as the kernel signs it: "FSVerity",
 * le16 algorithm, le16 digest size, then the digest. Returns its length.
 */
#define VERITY_FORMATTED_DIGEST_MAX (12 + VERITY_MAX_DIGEST_SIZE)
size_t verity_format_digest(const struct verity_hash_alg *alg,
			    const uint8_t *digest,
			    uint8_t out[VERITY_FORMATTED_DIGEST_MAX]);

/*
 * rpm pads every decoded signature to the longest one in the package and
 * reports a file without a signature as all zero bytes. Given such an entry,
 * return the length of the DER SEQUENCE it starts with, 0 for "no
 * signature", or -1 if it is neither.
 */
ssize_t verity_sig_length(const uint8_t *entry, size_t len);

/*
 * Whether the DER SEQUENCE der (len bytes, as verity_sig_length measured it)
 * is shaped like a PKCS#7 ContentInfo of type signedData: the outer shape
 * only, in a few dozen instructions. d2i_PKCS7() cost far more, most of
 * the plugin's own time (bench/README.md); the kernel parses the rest when
 * it verifies, and a signature it cannot parse is refused (EBADMSG).
 */
bool verity_sig_is_signed_data(const uint8_t *der, size_t len);

/*
 * The parts of a PKCS#7 SignedData with one SignerInfo that a verifier
 * needs, found by walking its DER (each points into the signature):
 * @signer_id, the content of the IssuerAndSerialNumber (the issuer Name's
 * and the serial INTEGER's DER, back to back); @digest_oid, the digest
 * algorithm's OBJECT IDENTIFIER, tag and length included; @sig, the
 * encryptedDigest's content. @has_attributes when it has signed
 * attributes (then the signature is not over the content's hash alone).
 * Returns false if @der is not that shape, or has bytes after it.
 */
struct verity_sig_parts {
	const uint8_t *signer_id;
	size_t signer_id_len;
	const uint8_t *digest_oid;
	size_t digest_oid_len;
	const uint8_t *sig;
	size_t sig_len;
	bool has_attributes;
};
bool verity_sig_parts(const uint8_t *der, size_t len,
		      struct verity_sig_parts *out);

#endif
