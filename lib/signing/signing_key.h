/* SPDX-License-Identifier: MIT */
/*
 * The signing key and certificate, loaded and checked once, and the PKCS#7
 * signatures the kernel's fs-verity builtin signature support expects. The
 * key is a PEM file or an RFC 7512 pkcs11: URI; callers cannot tell which.
 */
#ifndef RPMVERITY_SIGNING_KEY_H
#define RPMVERITY_SIGNING_KEY_H

#include <stddef.h>
#include <stdint.h>
#include <openssl/evp.h>
#include <openssl/pkcs7.h>
#include <openssl/x509.h>

#include "verity_format.h"

/*
 * A loaded key and its certificate. Opaque: a key in a token and a key in
 * memory differ in how they sign (one request at a time, or the fast
 * template), which is this file's business alone.
 */
struct signing_key;

/* Load a PEM or DER X.509 certificate. */
X509 *load_certificate(const char *path, char **err);

/*
 * Load the private key @keypath, a PEM file (decrypted with @passphrase when
 * given) or a pkcs11: URI (@passphrase is then the token's PIN unless the
 * URI carries one), and the certificate @certpath, and check that they
 * belong together and that the key type is one the kernel verifies (RSA,
 * ECDSA P-256/P-384). Returns the key, or NULL with a message in *@err.
 */
struct signing_key *signing_key_load(const char *keypath,
				     const char *certpath,
				     const char *passphrase, char **err);
/* Frees @key (NULL is fine). */
void signing_key_free(struct signing_key *key);

/* The file, or the URI without its PIN: what messages name the key by. */
const char *signing_key_name(const struct signing_key *key);
/* The certificate, owned by @key. */
X509 *signing_key_cert(const struct signing_key *key);
/* "RSA-2048", "ECDSA P-256"...: for messages saying what signed. */
const char *signing_key_type(const struct signing_key *key, char *buf,
			     size_t len);

/*
 * Sign @digest: a detached DER PKCS#7 SignedData over the formatted digest,
 * without certificates or signed attributes, as `fsverity sign` makes it.
 * Safe to call from several threads at once. Returns the DER length, or -1
 * with "KEY: cannot sign: " and OpenSSL's (or the token's) reasons in
 * *@err.
 */
int signing_key_sign(const struct signing_key *key,
		     const struct verity_hash_alg *alg, const uint8_t *digest,
		     uint8_t **der, char **err);

/*
 * A bare signature of @hash, made with @alg's hash function: PKCS#1 v1.5
 * for RSA, X9.62 DER for ECDSA, what IMA's sigv3 values carry. @sig has
 * room for *@siglen bytes; *@siglen gets the signature's length. Safe from
 * several threads at once. Returns 0, or -1 with the reason as above.
 */
int signing_key_sign_hash(const struct signing_key *key,
			  const struct verity_hash_alg *alg,
			  const uint8_t *hash, size_t hlen, uint8_t *sig,
			  size_t *siglen, char **err);

/*
 * OpenSSL's general way to check a signature, which sig_verifier.c takes
 * for signatures outside the fs-verity shape: signature_parse() decodes
 * @der (NULL, with the reason in *@why, if it is not a PKCS#7 SignedData);
 * signature_signer() returns the index of the certificate in @certs whose
 * issuer and serial the signature names, or -1; signature_check() checks
 * the signature against @cert over @digest formatted as fs-verity signs it
 * (0, or -1 with the reason in *@why).
 */
PKCS7 *signature_parse(const uint8_t *der, size_t len, char **why);
int signature_signer(PKCS7 *p7, X509 *const *certs, size_t n);
int signature_check(PKCS7 *p7, X509 *cert, const struct verity_hash_alg *alg,
		    const uint8_t *digest, char **why);

/*
 * Check that @der is a valid signature by @cert over @digest.
 * Returns 0, or -1 with the reason in *@why. (In sig_verifier.c; each
 * thread keeps its verifier while the certificate stays the same.)
 */
int verify_signature(X509 *cert, const struct verity_hash_alg *alg,
		     const uint8_t *digest, const uint8_t *der, size_t len,
		     char **why);

#endif
