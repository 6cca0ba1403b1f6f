// SPDX-License-Identifier: MIT
/*
 * Each distinct fs-verity signature is decoded and its signer found once,
 * and each (signature, measured digest) pair verified once: the same file
 * shipped by several packages, or hardlinks, carry the same signature, and
 * a signature check costs far more than the system calls around it. The
 * checks themselves are the signer's (sig_verifier.c), not a second copy.
 */
#include "audit.h"
#include "sig_verifier.h"

#include <stdlib.h>
#include <string.h>
#include <rpm/rpmbase64.h>
#include <rpm/rpmstring.h>

struct sig_entry {
	char *b64;		/* the key: the rpm header's text */
	uint8_t *der;
	size_t len;
	struct verity_sig_parts parts;	/* pointing into der */
	int signer;		/* index in certs, or -1 */
	enum audit_sig_verdict verdict;	/* untrusted or malformed, else OK */
	/* The last digest checked against it, and the outcome. */
	uint16_t alg;
	uint8_t digest[VERITY_MAX_DIGEST_SIZE];
	enum audit_sig_verdict checked;	/* AUDIT_SIG_MALFORMED: none yet */
};

struct audit_sigcache {
	struct sig_verifier **certs;
	size_t ncerts;
	struct sig_entry **slots;	/* open addressing, power of two */
	size_t cap, used;
	struct sig_entry *last;
	size_t verifications;
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 0x100000001b3ULL;
	return h;
}

struct audit_sigcache *audit_sigcache_new(X509 *const *certs, size_t ncerts)
{
	struct audit_sigcache *c = rcalloc(1, sizeof(*c));

	c->certs = rcalloc(ncerts ? ncerts : 1, sizeof(*c->certs));
	for (size_t i = 0; i < ncerts; i++)
		if (!(c->certs[i] = sig_verifier_new(certs[i])))
			abort();	/* out of memory, as rmalloc does */
	c->ncerts = ncerts;
	c->cap = 1024;
	c->slots = rcalloc(c->cap, sizeof(*c->slots));
	return c;
}

static void entry_free(struct sig_entry *e)
{
	free(e->der);
	free(e->b64);
	free(e);
}

void audit_sigcache_free(struct audit_sigcache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->cap; i++)
		if (c->slots[i])
			entry_free(c->slots[i]);
	for (size_t i = 0; i < c->ncerts; i++)
		sig_verifier_free(c->certs[i]);
	free(c->certs);
	free(c->slots);
	free(c);
}

static struct sig_entry **find_slot(struct sig_entry **slots, size_t cap,
				    const char *b64)
{
	size_t i = hash_str(b64) & (cap - 1);

	while (slots[i] && strcmp(slots[i]->b64, b64) != 0)
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

static void grow(struct audit_sigcache *c)
{
	size_t cap = c->cap * 2;
	struct sig_entry **slots = rcalloc(cap, sizeof(*slots));

	for (size_t i = 0; i < c->cap; i++)
		if (c->slots[i])
			*find_slot(slots, cap, c->slots[i]->b64) = c->slots[i];
	free(c->slots);
	c->slots = slots;
	c->cap = cap;
}

/* Decode and identify a signature seen for the first time. */
static struct sig_entry *entry_new(const struct audit_sigcache *c,
				   const char *b64)
{
	struct sig_entry *e = rcalloc(1, sizeof(*e));
	void *raw = NULL;
	size_t raw_len = 0;
	ssize_t len;

	e->b64 = rstrdup(b64);
	e->signer = -1;
	e->verdict = AUDIT_SIG_MALFORMED;
	e->checked = AUDIT_SIG_MALFORMED;
	if (rpmBase64Decode(b64, &raw, &raw_len) != 0) {
		free(raw);
		return e;
	}
	/* rpm pads entries with zero bytes to the longest one. */
	len = verity_sig_length(raw, raw_len);
	if (len <= 0) {
		free(raw);
		return e;
	}
	e->der = raw;
	e->len = (size_t)len;
	if (!verity_sig_parts(e->der, e->len, &e->parts))
		return e;
	for (size_t i = 0; e->signer < 0 && i < c->ncerts; i++)
		if (sig_verifier_signed_by(c->certs[i], &e->parts, e->der, e->len))
			e->signer = (int)i;
	e->verdict = e->signer < 0 ? AUDIT_SIG_UNTRUSTED : AUDIT_SIG_OK;
	return e;
}

enum audit_sig_verdict audit_sigcache_signer(struct audit_sigcache *c,
					     const char *b64,
					     const uint8_t **der,
					     size_t *len)
{
	struct sig_entry **slot = find_slot(c->slots, c->cap, b64);

	if (!*slot) {
		*slot = entry_new(c, b64);
		if (++c->used * 2 > c->cap)
			grow(c);
		slot = find_slot(c->slots, c->cap, b64);
	}
	c->last = *slot;
	*der = c->last->der;
	*len = c->last->len;
	return c->last->verdict;
}

enum audit_sig_verdict audit_sigcache_check(struct audit_sigcache *c,
					    const struct verity_hash_alg *alg,
					    const uint8_t *digest)
{
	struct sig_entry *e = c->last;
	char *why = NULL;

	if (!e || e->verdict != AUDIT_SIG_OK)
		return e ? e->verdict : AUDIT_SIG_MALFORMED;
	if (e->checked != AUDIT_SIG_MALFORMED && e->alg == alg->id &&
	    !memcmp(e->digest, digest, alg->digest_size))
		return e->checked;
	c->verifications++;
	e->checked = sig_verifier_check(c->certs[e->signer], &e->parts, e->der,
					e->len, alg, digest, &why) == 0 ?
		     AUDIT_SIG_OK : AUDIT_SIG_MISMATCH;
	free(why);
	e->alg = alg->id;
	memcpy(e->digest, digest, alg->digest_size);
	return e->checked;
}

size_t audit_sigcache_verifications(const struct audit_sigcache *c)
{
	return c->verifications;
}
