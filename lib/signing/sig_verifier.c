// SPDX-License-Identifier: MIT
/*
 * fs-verity signatures carry one SignerInfo and no signed attributes, so
 * the signature is over the hash of the formatted digest alone, as the
 * kernel checks it. d2i_PKCS7() and PKCS7_verify() took well over what
 * `openssl speed` counts per verification (bench/README.md): most of that
 * is decoding names and building BIO chains and key contexts each time.
 * Here the signer is matched by its IssuerAndSerialNumber bytes and the
 * key context is made once per digest algorithm. Anything else (signed
 * attributes, an issuer encoded differently) takes OpenSSL's general path
 * in signing_key.c.
 */
#include "sig_verifier.h"
#include "signing_key.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/err.h>
#include <openssl/rsa.h>
#include <rpm/rpmstring.h>

/* Digest algorithms by their OBJECT IDENTIFIER's DER (2.16.840.1.101.3.4.2.x). */
static const struct {
	uint8_t oid[11];
	const char *name;
} digests[] = {
	{ { 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01 }, "SHA256" },
	{ { 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02 }, "SHA384" },
	{ { 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03 }, "SHA512" },
};
#define NDIGESTS (sizeof(digests) / sizeof(digests[0]))

struct sig_verifier {
	X509 *cert;
	uint8_t *id;		/* issuer Name and serial INTEGER, DER */
	size_t id_len;
	EVP_MD *md[NDIGESTS];	/* fetched and contexts made on first use */
	EVP_PKEY_CTX *ctx[NDIGESTS];
	EVP_PKEY_CTX *rctx[NDIGESTS];	/* sig_verifier_recover's */
};

struct sig_verifier *sig_verifier_new(X509 *cert)
{
	struct sig_verifier *v = calloc(1, sizeof(*v));
	uint8_t *name = NULL, *serial = NULL;
	int nlen, slen;

	if (!v)
		return NULL;
	nlen = i2d_X509_NAME(X509_get_issuer_name(cert), &name);
	slen = i2d_ASN1_INTEGER((ASN1_INTEGER *)X509_get0_serialNumber(cert),
				&serial);
	if (nlen > 0 && slen > 0 && (v->id = malloc((size_t)(nlen + slen)))) {
		memcpy(v->id, name, (size_t)nlen);
		memcpy(v->id + nlen, serial, (size_t)slen);
		v->id_len = (size_t)(nlen + slen);
	}
	OPENSSL_free(name);
	OPENSSL_free(serial);
	if (!v->id || !X509_up_ref(cert)) {
		free(v->id);
		free(v);
		return NULL;
	}
	v->cert = cert;
	return v;
}

void sig_verifier_free(struct sig_verifier *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < NDIGESTS; i++) {
		EVP_PKEY_CTX_free(v->ctx[i]);
		EVP_PKEY_CTX_free(v->rctx[i]);
		EVP_MD_free(v->md[i]);
	}
	X509_free(v->cert);
	free(v->id);
	free(v);
}

bool sig_verifier_signed_by(const struct sig_verifier *v,
			    const struct verity_sig_parts *parts,
			    const uint8_t *der, size_t len)
{
	PKCS7 *p7;
	char *why = NULL;
	X509 *cert = v->cert;
	bool by;

	if (parts->signer_id_len == v->id_len &&
	    memcmp(parts->signer_id, v->id, v->id_len) == 0)
		return true;
	/* Names can be encoded in more than one way: ask OpenSSL. */
	p7 = signature_parse(der, len, &why);
	by = p7 && signature_signer(p7, &cert, 1) == 0;
	PKCS7_free(p7);
	free(why);
	return by;
}

/* The context for digest @i, made the first time it is needed. */
static EVP_PKEY_CTX *key_ctx(struct sig_verifier *v, size_t i)
{
	if (v->ctx[i])
		return v->ctx[i];
	v->md[i] = EVP_MD_fetch(NULL, digests[i].name, NULL);
	v->ctx[i] = EVP_PKEY_CTX_new(X509_get0_pubkey(v->cert), NULL);
	if (!v->md[i] || !v->ctx[i] || EVP_PKEY_verify_init(v->ctx[i]) != 1 ||
	    EVP_PKEY_CTX_set_signature_md(v->ctx[i], v->md[i]) != 1) {
		EVP_PKEY_CTX_free(v->ctx[i]);
		v->ctx[i] = NULL;
	}
	return v->ctx[i];
}

/* Index in digests[] of the signature's digest algorithm; NDIGESTS: none. */
static size_t digest_of(const struct verity_sig_parts *parts)
{
	size_t i;

	for (i = 0; i < NDIGESTS && !parts->has_attributes; i++)
		if (parts->digest_oid_len == sizeof(digests[i].oid) &&
		    !memcmp(parts->digest_oid, digests[i].oid, sizeof(digests[i].oid)))
			return i;
	return NDIGESTS;
}

const char *sig_verifier_md_name(const struct verity_sig_parts *parts)
{
	size_t i = digest_of(parts);

	return i < NDIGESTS ? digests[i].name : NULL;
}

/* Recovery wants its own context: verify_recover, PKCS#1 v1.5, the digest. */
static EVP_PKEY_CTX *recover_ctx(struct sig_verifier *v, size_t i)
{
	EVP_PKEY *key = X509_get0_pubkey(v->cert);

	if (v->rctx[i])
		return v->rctx[i];
	if (!key || EVP_PKEY_get_base_id(key) != EVP_PKEY_RSA || !key_ctx(v, i))
		return NULL;
	v->rctx[i] = EVP_PKEY_CTX_new(key, NULL);
	if (!v->rctx[i] || EVP_PKEY_verify_recover_init(v->rctx[i]) != 1 ||
	    EVP_PKEY_CTX_set_rsa_padding(v->rctx[i], RSA_PKCS1_PADDING) != 1 ||
	    EVP_PKEY_CTX_set_signature_md(v->rctx[i], v->md[i]) != 1) {
		EVP_PKEY_CTX_free(v->rctx[i]);
		v->rctx[i] = NULL;
	}
	return v->rctx[i];
}

size_t sig_verifier_recover(struct sig_verifier *v,
			    const struct verity_sig_parts *parts,
			    uint8_t out[EVP_MAX_MD_SIZE])
{
	size_t i = digest_of(parts), len = EVP_MAX_MD_SIZE;
	EVP_PKEY_CTX *ctx = i < NDIGESTS ? recover_ctx(v, i) : NULL;
	int ok;

	if (!ctx)
		return 0;
	ok = EVP_PKEY_verify_recover(ctx, out, &len, parts->sig,
				     parts->sig_len) == 1;
	ERR_clear_error();
	return ok && len == (size_t)EVP_MD_get_size(v->md[i]) ? len : 0;
}

size_t sig_verifier_signed_hash(const char *md_name,
				const struct verity_hash_alg *alg,
				const uint8_t *digest,
				uint8_t out[EVP_MAX_MD_SIZE])
{
	uint8_t formatted[VERITY_FORMATTED_DIGEST_MAX];
	size_t flen = verity_format_digest(alg, digest, formatted);
	unsigned int len = 0;
	EVP_MD *md = EVP_MD_fetch(NULL, md_name, NULL);
	int ok = md && EVP_Digest(formatted, flen, out, &len, md, NULL) == 1;

	EVP_MD_free(md);
	return ok ? len : 0;
}

int sig_verifier_check(struct sig_verifier *v,
		       const struct verity_sig_parts *parts,
		       const uint8_t *der, size_t len,
		       const struct verity_hash_alg *alg,
		       const uint8_t *digest, char **why)
{
	uint8_t formatted[VERITY_FORMATTED_DIGEST_MAX], hash[EVP_MAX_MD_SIZE];
	size_t flen = verity_format_digest(alg, digest, formatted), i;
	unsigned int hlen = 0;
	EVP_PKEY_CTX *ctx = NULL;
	PKCS7 *p7;
	int rc;

	i = digest_of(parts);
	if (i < NDIGESTS && (ctx = key_ctx(v, i))) {
		rc = EVP_Digest(formatted, flen, hash, &hlen, v->md[i], NULL) == 1 &&
		     EVP_PKEY_verify(ctx, parts->sig, parts->sig_len, hash,
				     hlen) == 1 ? 0 : -1;
		ERR_clear_error();
		if (rc)
			rasprintf(why, "signature does not match the file's fs-verity digest");
		return rc;
	}
	p7 = signature_parse(der, len, why);
	if (!p7)
		return -1;
	rc = signature_check(p7, v->cert, alg, digest, why);
	PKCS7_free(p7);
	return rc;
}

/*
 * verify_signature() runs on the digest workers of verify and inject, once
 * per file, always with the same certificate: each thread keeps its
 * verifier (whose key contexts must not be shared) for as long as the
 * certificate stays the same, and frees it when the thread ends. The
 * verifier holds a reference on its certificate, so a certificate at the
 * same address is the same certificate.
 */
static pthread_key_t thread_verifier_key;
static pthread_once_t thread_verifier_once = PTHREAD_ONCE_INIT;
static _Thread_local struct sig_verifier *thread_verifier;

static void thread_verifier_free(void *v)
{
	sig_verifier_free(v);
}

static void thread_verifier_init(void)
{
	if (pthread_key_create(&thread_verifier_key, thread_verifier_free))
		abort();
}

static struct sig_verifier *verifier_for(X509 *cert)
{
	struct sig_verifier *v = thread_verifier;

	if (v && v->cert == cert)
		return v;
	pthread_once(&thread_verifier_once, thread_verifier_init);
	v = sig_verifier_new(cert);
	if (!v)
		return NULL;
	sig_verifier_free(thread_verifier);
	thread_verifier = v;
	pthread_setspecific(thread_verifier_key, v);
	return v;
}

int verify_signature(X509 *cert, const struct verity_hash_alg *alg,
		     const uint8_t *digest, const uint8_t *der, size_t len,
		     char **why)
{
	struct verity_sig_parts parts;
	struct sig_verifier *v;

	if (!verity_sig_parts(der, len, &parts)) {
		rasprintf(why, "signature is not a DER PKCS#7 SignedData");
		return -1;
	}
	if (!(v = verifier_for(cert))) {
		rasprintf(why, "out of memory");
		return -1;
	}
	if (!sig_verifier_signed_by(v, &parts, der, len)) {
		rasprintf(why, "signed by a key other than the certificate's");
		return -1;
	}
	return sig_verifier_check(v, &parts, der, len, alg, digest, why);
}
