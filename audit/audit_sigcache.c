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
#include <rpm/rpmstring.h>

struct sig_entry {
	uint8_t *der;		/* the key */
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

struct sig_verifier **audit_verifiers_new(X509 *const *certs, size_t ncerts)
{
	struct sig_verifier **v = rcalloc(ncerts ? ncerts : 1, sizeof(*v));

	for (size_t i = 0; i < ncerts; i++)
		if (!(v[i] = sig_verifier_new(certs[i])))
			abort();	/* out of memory, as rmalloc does */
	return v;
}

void audit_verifiers_free(struct sig_verifier **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sig_verifier_free(v[i]);
	free(v);
}

struct audit_sigcache *audit_sigcache_new(X509 *const *certs, size_t ncerts)
{
	struct audit_sigcache *c = rcalloc(1, sizeof(*c));

	c->certs = audit_verifiers_new(certs, ncerts);
	c->ncerts = ncerts;
	c->cap = 1024;
	c->slots = rcalloc(c->cap, sizeof(*c->slots));
	return c;
}

static void entry_free(struct sig_entry *e)
{
	free(e->der);
	free(e);
}

void audit_sigcache_free(struct audit_sigcache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->cap; i++)
		if (c->slots[i])
			entry_free(c->slots[i]);
	audit_verifiers_free(c->certs, c->ncerts);
	free(c->slots);
	free(c);
}

static struct sig_entry **find_slot(struct sig_entry **slots, size_t cap,
				    const uint8_t *der, size_t len)
{
	size_t i = audit_hash_bytes(der, len) & (cap - 1);

	while (slots[i] && (slots[i]->len != len ||
			    memcmp(slots[i]->der, der, len) != 0))
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

static void grow(struct audit_sigcache *c)
{
	size_t cap = c->cap * 2;
	struct sig_entry **slots = rcalloc(cap, sizeof(*slots));

	for (size_t i = 0; i < c->cap; i++)
		if (c->slots[i])
			*find_slot(slots, cap, c->slots[i]->der,
				   c->slots[i]->len) = c->slots[i];
	free(c->slots);
	c->slots = slots;
	c->cap = cap;
}

/* Identify a signature seen for the first time. */
static struct sig_entry *entry_new(const struct audit_sigcache *c,
				   const uint8_t *der, size_t len)
{
	struct sig_entry *e = rcalloc(1, sizeof(*e));

	e->der = rmalloc(len ? len : 1);
	memcpy(e->der, der, len);
	e->len = len;
	e->signer = -1;
	e->verdict = AUDIT_SIG_MALFORMED;
	e->checked = AUDIT_SIG_MALFORMED;
	if (!verity_sig_parts(e->der, e->len, &e->parts))
		return e;
	for (size_t i = 0; e->signer < 0 && i < c->ncerts; i++)
		if (sig_verifier_signed_by(c->certs[i], &e->parts, e->der, e->len))
			e->signer = (int)i;
	e->verdict = e->signer < 0 ? AUDIT_SIG_UNTRUSTED : AUDIT_SIG_OK;
	return e;
}

enum audit_sig_verdict audit_sigcache_signer(struct audit_sigcache *c,
					     const uint8_t *der, size_t len)
{
	struct sig_entry **slot = find_slot(c->slots, c->cap, der, len);

	if (!*slot) {
		*slot = entry_new(c, der, len);
		if (++c->used * 2 > c->cap)
			grow(c);
		slot = find_slot(c->slots, c->cap, der, len);
	}
	c->last = *slot;
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
