// SPDX-License-Identifier: MIT
/*
 * See sign_template.h. Key contexts are kept in a small free list: a
 * context must not be used by two threads at once, and making one per
 * signature would bring back part of the cost this file removes.
 */
#include "sign_template.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/err.h>
#include <openssl/rsa.h>

#define NALGS	2	/* verity algorithm ids 1 (sha256) and 2 (sha512) */

struct ctx_node {
	struct ctx_node *next;
	EVP_PKEY_CTX *ctx;
};

struct alg_template {
	EVP_MD *md;
	uint8_t *der;		/* a whole signature */
	size_t len, sig_off, sig_len;
	struct ctx_node *free_ctx;
};

struct sign_template {
	EVP_PKEY *pkey;
	pthread_mutex_t lock;	/* the free lists */
	struct alg_template alg[NALGS];
};

static struct alg_template *alg_of(struct sign_template *t,
				   const struct verity_hash_alg *alg)
{
	return alg->id >= 1 && alg->id <= NALGS && t->alg[alg->id - 1].der ?
	       &t->alg[alg->id - 1] : NULL;
}

static struct ctx_node *take_ctx(struct sign_template *t, struct alg_template *a)
{
	struct ctx_node *n;

	pthread_mutex_lock(&t->lock);
	n = a->free_ctx;
	if (n)
		a->free_ctx = n->next;
	pthread_mutex_unlock(&t->lock);
	if (n)
		return n;
	n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	n->ctx = EVP_PKEY_CTX_new(t->pkey, NULL);
	if (!n->ctx || EVP_PKEY_sign_init(n->ctx) != 1 ||
	    EVP_PKEY_CTX_set_rsa_padding(n->ctx, RSA_PKCS1_PADDING) != 1 ||
	    EVP_PKEY_CTX_set_signature_md(n->ctx, a->md) != 1) {
		EVP_PKEY_CTX_free(n->ctx);
		free(n);
		return NULL;
	}
	return n;
}

static void put_ctx(struct sign_template *t, struct alg_template *a,
		    struct ctx_node *n)
{
	pthread_mutex_lock(&t->lock);
	n->next = a->free_ctx;
	a->free_ctx = n;
	pthread_mutex_unlock(&t->lock);
}

int sign_template_sign(struct sign_template *t,
		       const struct verity_hash_alg *alg,
		       const uint8_t *digest, uint8_t **der)
{
	uint8_t formatted[VERITY_FORMATTED_DIGEST_MAX], hash[EVP_MAX_MD_SIZE];
	size_t flen = verity_format_digest(alg, digest, formatted);
	struct alg_template *a = alg_of(t, alg);
	unsigned int hlen = 0;
	struct ctx_node *n;
	size_t siglen;
	int ok;

	*der = NULL;
	if (!a || EVP_Digest(formatted, flen, hash, &hlen, a->md, NULL) != 1 ||
	    !(n = take_ctx(t, a)))
		return -1;
	*der = OPENSSL_malloc(a->len);
	siglen = a->sig_len;
	ok = *der && EVP_PKEY_sign(n->ctx, *der + a->sig_off, &siglen, hash,
				   hlen) == 1 && siglen == a->sig_len;
	put_ctx(t, a, n);
	if (!ok) {
		OPENSSL_free(*der);
		*der = NULL;
		ERR_clear_error();
		return -1;
	}
	memcpy(*der, a->der, a->sig_off);
	memcpy(*der + a->sig_off + a->sig_len, a->der + a->sig_off + a->sig_len,
	       a->len - a->sig_off - a->sig_len);
	return (int)a->len;
}

/* The template for @alg from one PKCS7_sign() signature, checked. */
static int build(struct sign_template *t, const struct signing_key *key,
		 const struct verity_hash_alg *alg)
{
	struct alg_template *a = &t->alg[alg->id - 1];
	uint8_t probe[VERITY_MAX_DIGEST_SIZE], *again = NULL;
	struct verity_sig_parts parts;
	char *why = NULL;
	int len, ok;

	for (size_t i = 0; i < sizeof(probe); i++)
		probe[i] = (uint8_t)(i * 37 + 11);
	len = signing_key_sign(key, alg, probe, &a->der, &why);
	free(why);
	if (len <= 0 || !verity_sig_parts(a->der, (size_t)len, &parts) ||
	    parts.has_attributes ||
	    !(a->md = EVP_MD_fetch(NULL, alg->name, NULL)))
		return -1;
	a->len = (size_t)len;
	a->sig_off = (size_t)(parts.sig - a->der);
	a->sig_len = parts.sig_len;
	ok = sign_template_sign(t, alg, probe, &again) == len &&
	     memcmp(again, a->der, a->len) == 0;
	OPENSSL_free(again);
	return ok ? 0 : -1;
}

void sign_template_free(struct sign_template *t)
{
	if (!t)
		return;
	for (int i = 0; i < NALGS; i++) {
		struct alg_template *a = &t->alg[i];

		while (a->free_ctx) {
			struct ctx_node *n = a->free_ctx;

			a->free_ctx = n->next;
			EVP_PKEY_CTX_free(n->ctx);
			free(n);
		}
		OPENSSL_free(a->der);
		EVP_MD_free(a->md);
	}
	pthread_mutex_destroy(&t->lock);
	free(t);
}

struct sign_template *sign_template_new(const struct signing_key *key,
					EVP_PKEY *pkey)
{
	struct sign_template *t;

	if (EVP_PKEY_get_base_id(pkey) != EVP_PKEY_RSA)
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->pkey = pkey;
	pthread_mutex_init(&t->lock, NULL);
	for (unsigned int id = 1; id <= NALGS; id++) {
		if (build(t, key, verity_hash_alg_by_id(id)) != 0) {
			sign_template_free(t);
			ERR_clear_error();
			return NULL;
		}
	}
	return t;
}
