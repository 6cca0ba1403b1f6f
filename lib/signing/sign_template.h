/* SPDX-License-Identifier: MIT */
/*
 * fs-verity signatures by an RSA key without OpenSSL's PKCS#7 builder.
 * With no signed attributes and no certificates, a PKCS#7 SignedData by
 * one RSA key is the same bytes for every digest but the RSA signature
 * itself, whose length is the modulus'. PKCS7_sign() rebuilds the whole
 * structure (names, algorithm identifiers, a BIO chain, a key context) for
 * each one, which cost well over the RSA operation `openssl speed`
 * counts. Here one real signature is the template; each new one is an
 * EVP_PKEY_sign() spliced into a copy. The template is checked at load by
 * signing a probe both ways and comparing the bytes (PKCS#1 v1.5 is
 * deterministic), so the output is PKCS7_sign()'s, byte for byte.
 */
#ifndef RPMVERITY_SIGN_TEMPLATE_H
#define RPMVERITY_SIGN_TEMPLATE_H

#include "signing_key.h"

struct sign_template;

/*
 * A template for @key, whose private key @pkey is RSA in memory (a token's
 * key signs through its module, one request at a time, and gains nothing),
 * or NULL when there is none to be had; the caller then signs with
 * PKCS7_sign(). For signing_key.c alone.
 */
struct sign_template *sign_template_new(const struct signing_key *key,
					EVP_PKEY *pkey);
void sign_template_free(struct sign_template *t);

/* As signing_key_sign(); safe from several threads at once. */
int sign_template_sign(struct sign_template *t,
		       const struct verity_hash_alg *alg,
		       const uint8_t *digest, uint8_t **der);

#endif
