// SPDX-License-Identifier: MIT
/*
 * Making and checking IMA sigv3 values with OpenSSL. The kernel verifies
 * them with the public key alone (PKCS#1 v1.5 for RSA, an X9.62 DER
 * signature for ECDSA) over the hash of struct ima_file_id, so this is a
 * raw EVP_PKEY signature, not PKCS#7 as for fs-verity's own signatures.
 */
#include "ima_sigs.h"

#include <stdlib.h>
#include <string.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>
#include <openssl/x509v3.h>
#include <rpm/rpmstring.h>

#include "big_endian.h"
#include "hex.h"
#include "ima_sig.h"

int ima_keyid_of_cert(X509 *cert, const char *certpath, uint32_t *keyid,
		      char **err)
{
	const ASN1_OCTET_STRING *skid = X509_get0_subject_key_id(cert);
	const uint8_t *p;
	int n;

	if (!skid || (n = ASN1_STRING_length(skid)) < 4) {
		rasprintf(err, "%s: certificate has no subject key identifier, which the kernel finds IMA keys by (make one with rpm-verity-keygen --ima)",
			  certpath);
		return -1;
	}
	p = ASN1_STRING_get0_data(skid) + n - 4;
	*keyid = be32(p);
	return 0;
}

/* hash_algo(struct ima_file_id) for @digest; its length, or 0. */
static unsigned int file_id_hash(const struct verity_hash_alg *alg,
				 const uint8_t *digest,
				 uint8_t out[EVP_MAX_MD_SIZE])
{
	uint8_t id[IMA_FILE_ID_MAX];
	size_t idlen = ima_file_id(ima_hash_algo_of_verity(alg->id), digest, id);
	const EVP_MD *md = EVP_get_digestbyname(alg->name);
	unsigned int len = 0;

	if (!idlen || !md || !EVP_Digest(id, idlen, out, &len, md, NULL))
		return 0;
	return len;
}

/* A context for checking a signature by @pkey as the kernel does. */
static EVP_PKEY_CTX *verify_ctx(EVP_PKEY *pkey,
				const struct verity_hash_alg *alg)
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(pkey, NULL);
	const EVP_MD *md = EVP_get_digestbyname(alg->name);

	if (!ctx || !md || EVP_PKEY_verify_init(ctx) <= 0 ||
	    EVP_PKEY_CTX_set_signature_md(ctx, md) <= 0 ||
	    (EVP_PKEY_get_base_id(pkey) == EVP_PKEY_RSA &&
	     EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_PADDING) <= 0)) {
		EVP_PKEY_CTX_free(ctx);
		return NULL;
	}
	return ctx;
}

int ima_key_load(struct ima_key *ik, const char *keypath, const char *certpath,
		 const char *passphrase, char **err)
{
	ik->key = signing_key_load(keypath, certpath, passphrase, err);
	if (!ik->key)
		return -1;
	if (ima_keyid_of_cert(signing_key_cert(ik->key), certpath, &ik->keyid,
			      err) != 0) {
		signing_key_free(ik->key);
		ik->key = NULL;
		return -1;
	}
	return 0;
}

void ima_key_free(struct ima_key *ik)
{
	signing_key_free(ik->key);
	ik->key = NULL;
}

void ima_sigs_init(struct ima_sigs *ima, const struct ima_key *ik,
		   const struct verity_hash_alg *alg, uint32_t count)
{
	ima->key = ik->key;
	ima->keyid = ik->keyid;
	ima->alg = alg;
	ima->count = count;
	ima->hex = rcalloc(count ? count : 1, sizeof(*ima->hex));
}

void ima_sigs_free(struct ima_sigs *ima)
{
	for (uint32_t i = 0; ima->hex && i < ima->count; i++)
		free(ima->hex[i]);
	free(ima->hex);
	ima->hex = NULL;
}

char *ima_sign_hex(const struct signing_key *key, uint32_t keyid,
		   const struct verity_hash_alg *alg, const uint8_t *digest,
		   char **err)
{
	uint8_t hash[EVP_MAX_MD_SIZE], sig[IMA_SIG_MAX_SIZE];
	uint8_t value[IMA_VALUE_MAX];
	unsigned int hlen = file_id_hash(alg, digest, hash);
	size_t siglen = sizeof(sig), len = 0;
	struct ima_sig s = {
		.type = IMA_VERITY_DIGSIG,
		.version = IMA_SIG_VERSION_VERITY,
		.hash_algo = ima_hash_algo_of_verity(alg->id),
		.keyid = keyid,
		.sig = sig,
	};
	char *hex;

	if (!hlen) {
		ERR_clear_error();
		rasprintf(err, "%s: cannot hash the IMA file id with %s",
			  signing_key_name(key), alg->name);
		return NULL;
	}
	if (signing_key_sign_hash(key, alg, hash, hlen, sig, &siglen, err))
		return NULL;
	s.sig_size = (uint16_t)siglen;
	len = ima_sig_write(&s, value, sizeof(value));
	if (!len) {
		rasprintf(err, "%s: cannot make an IMA signature value of a %zu byte signature",
			  signing_key_name(key), siglen);
		return NULL;
	}
	hex = rmalloc(2 * len + 1);
	hex_encode(value, len, hex);
	return hex;
}

int ima_sigs_sign(struct ima_sigs *ima, uint32_t index, const uint8_t *digest,
		  char **err)
{
	ima->hex[index] = ima_sign_hex(ima->key, ima->keyid, ima->alg, digest,
				       err);
	return ima->hex[index] ? 0 : -1;
}

void ima_sigs_copy(struct ima_sigs *ima, uint32_t dst, uint32_t src)
{
	free(ima->hex[dst]);
	ima->hex[dst] = ima->hex[src] ? rstrdup(ima->hex[src]) : NULL;
}

int ima_verify_value(X509 *cert, uint32_t keyid,
		     const struct verity_hash_alg *alg, const uint8_t *digest,
		     const uint8_t *value, size_t len, char **why)
{
	uint8_t hash[EVP_MAX_MD_SIZE];
	uint8_t want_algo = ima_hash_algo_of_verity(alg->id);
	EVP_PKEY_CTX *ctx = NULL;
	struct ima_sig s;
	unsigned int hlen;
	int rc = ima_sig_parse(value, len, &s);

	if (rc != IMA_SIG_OK) {
		rasprintf(why, "IMA signature: %s", ima_sig_strerror(rc));
		return -1;
	}
	if (s.hash_algo != want_algo) {
		rasprintf(why, "IMA signature made for %s digests, the package's are %s",
			  s.hash_algo == IMA_HASH_SHA256 ? "sha256" : "sha512",
			  alg->name);
		return -1;
	}
	if (s.keyid != keyid) {
		rasprintf(why, "IMA signature by key id %08x, the certificate's is %08x",
			  s.keyid, keyid);
		return -1;
	}
	rc = -1;
	hlen = file_id_hash(alg, digest, hash);
	ctx = verify_ctx(X509_get0_pubkey(cert), alg);
	if (!hlen || !ctx)
		rasprintf(why, "cannot check the IMA signature with this certificate");
	else if (EVP_PKEY_verify(ctx, s.sig, s.sig_size, hash, hlen) != 1)
		rasprintf(why, "IMA signature does not match the file's fs-verity digest");
	else
		rc = 0;
	EVP_PKEY_CTX_free(ctx);
	ERR_clear_error();
	return rc;
}
