// SPDX-License-Identifier: MIT
/*
 * From a file met at a path no package owns back to the package file whose
 * signed content it is, without reading it (audit --unowned). The rpmdb
 * keeps signatures, not fs-verity digests, and a detached PKCS#7 signature
 * does not contain the digest it signs. Three ways lead back, cheapest
 * first:
 *  - the file's builtin signature (FS_IOC_READ_VERITY_METADATA) is a
 *    package's entry byte for byte, as it is for a file the plugin enabled
 *    and that was then moved or hard-linked; it is then verified against
 *    the measured digest, so a signature put on other content names
 *    nothing;
 *  - an RSA signature gives back, with the certificate's public key, the
 *    hash of the formatted digest it signs: recovered once for every
 *    trusted signature in the rpmdb, the first time a file needs it, they
 *    index the digests themselves, which also finds content enabled
 *    without a signature or with another one (ECDSA cannot be recovered);
 *  - security.ima is a package's IMA value (tag 5090) byte for byte.
 */
#include "audit.h"
#include "ima_sig.h"
#include "sig_verifier.h"

#include <stdlib.h>
#include <string.h>
#include <rpm/rpmstring.h>

/* A distinct fs-verity signature of the rpmdb, and the first file with it. */
struct sig_entry {
	uint8_t *der;
	size_t len;
	struct audit_pkgfile file;
};

struct audit_index {
	struct sig_verifier **certs;
	size_t ncerts;
	struct audit_keymap *sigs;	/* DER -> struct sig_entry */
	struct sig_entry **list;	/* the same, in order, to recover */
	size_t nlist;
	struct audit_keymap *ima;	/* value -> struct audit_pkgfile */
	struct audit_keymap *hashes;	/* md name, NUL, hash -> sig_entry */
	bool recovered;
	const char *mds[4];		/* the digests the hashes use */
	size_t nmds;
};

static void pkgfile_free(void *p)
{
	struct audit_pkgfile *f = p;

	free(f->nevra);
	free(f->path);
	free(f);
}

struct audit_index *audit_index_new(X509 *const *certs, size_t ncerts)
{
	struct audit_index *x = rcalloc(1, sizeof(*x));

	x->certs = audit_verifiers_new(certs, ncerts);
	x->ncerts = ncerts;
	x->sigs = audit_keymap_new(NULL);
	x->ima = audit_keymap_new(pkgfile_free);
	x->hashes = audit_keymap_new(NULL);
	return x;
}

void audit_index_free(struct audit_index *x)
{
	if (!x)
		return;
	for (size_t i = 0; i < x->nlist; i++) {
		free(x->list[i]->der);
		free(x->list[i]->file.nevra);
		free(x->list[i]->file.path);
		free(x->list[i]);
	}
	audit_verifiers_free(x->certs, x->ncerts);
	free(x->list);
	audit_keymap_free(x->sigs);
	audit_keymap_free(x->ima);
	audit_keymap_free(x->hashes);
	free(x);
}

static void name_file(struct audit_pkgfile *f, const struct audit_pkg *pkg,
		      int i)
{
	f->nevra = rstrdup(pkg->nevra);
	f->path = rpmfilesFN(pkg->files, i);
}

void audit_index_add(struct audit_index *x, const struct audit_pkg *pkg,
		     int i)
{
	const struct file_sig *sig = audit_pkg_sig(pkg, i);
	uint8_t ima[IMA_VALUE_MAX];
	ssize_t ima_len = audit_pkg_ima(pkg, i, ima, sizeof(ima));

	if (sig->state == FILE_SIG_OK &&
	    !audit_keymap_get(x->sigs, sig->bytes, sig->len)) {
		struct sig_entry *e = rcalloc(1, sizeof(*e));

		e->der = rmalloc(sig->len);
		memcpy(e->der, sig->bytes, sig->len);
		e->len = sig->len;
		name_file(&e->file, pkg, i);
		audit_keymap_add(x->sigs, e->der, e->len, e);
		x->list = rrealloc(x->list, (x->nlist + 1) * sizeof(*x->list));
		x->list[x->nlist++] = e;
	}
	if (ima_len > 0 && !audit_keymap_get(x->ima, ima, (size_t)ima_len)) {
		struct audit_pkgfile *f = rcalloc(1, sizeof(*f));

		name_file(f, pkg, i);
		audit_keymap_add(x->ima, ima, (size_t)ima_len, f);
	}
}

/* The trusted certificate that signed @der, walked into @parts; or NULL. */
static struct sig_verifier *signer_of(const struct audit_index *x,
				      const uint8_t *der, size_t len,
				      struct verity_sig_parts *parts)
{
	if (!verity_sig_parts(der, len, parts))
		return NULL;
	for (size_t i = 0; i < x->ncerts; i++)
		if (sig_verifier_signed_by(x->certs[i], parts, der, len))
			return x->certs[i];
	return NULL;
}

/* md name, NUL, hash: one key space for every digest algorithm. */
static size_t hash_key(const char *md, const uint8_t *hash, size_t hlen,
		       uint8_t *key)
{
	size_t n = strlen(md) + 1;

	memcpy(key, md, n);
	memcpy(key + n, hash, hlen);
	return n + hlen;
}

static void recover_all(struct audit_index *x)
{
	uint8_t hash[EVP_MAX_MD_SIZE], key[32 + EVP_MAX_MD_SIZE];
	struct verity_sig_parts parts;
	struct sig_verifier *v;
	const char *md;
	size_t hlen, j;

	x->recovered = true;
	for (size_t i = 0; i < x->nlist; i++) {
		struct sig_entry *e = x->list[i];

		if (!(v = signer_of(x, e->der, e->len, &parts)) ||
		    !(md = sig_verifier_md_name(&parts)) ||
		    strlen(md) >= 32 ||
		    !(hlen = sig_verifier_recover(v, &parts, hash)))
			continue;
		audit_keymap_add(x->hashes, key, hash_key(md, hash, hlen, key),
				 e);
		for (j = 0; j < x->nmds && strcmp(x->mds[j], md); j++)
			;
		if (j == x->nmds && x->nmds < sizeof(x->mds) / sizeof(*x->mds))
			x->mds[x->nmds++] = md;
	}
}

const struct audit_pkgfile *audit_index_content(struct audit_index *x,
						uint16_t alg_id,
						const uint8_t *digest,
						const uint8_t *sig,
						size_t sig_len)
{
	const struct verity_hash_alg *alg = verity_hash_alg_by_id(alg_id);
	uint8_t hash[EVP_MAX_MD_SIZE], key[32 + EVP_MAX_MD_SIZE];
	struct verity_sig_parts parts;
	struct sig_verifier *v;
	struct sig_entry *e;
	char *why = NULL;
	size_t hlen;

	if (!alg)
		return NULL;
	e = sig ? audit_keymap_get(x->sigs, sig, sig_len) : NULL;
	if (e && (v = signer_of(x, e->der, e->len, &parts))) {
		int rc = sig_verifier_check(v, &parts, e->der, e->len, alg,
					    digest, &why);

		free(why);
		if (rc == 0)
			return &e->file;
	}
	if (!x->recovered)
		recover_all(x);
	for (size_t i = 0; i < x->nmds; i++) {
		hlen = sig_verifier_signed_hash(x->mds[i], alg, digest, hash);
		if (hlen && (e = audit_keymap_get(x->hashes, key,
				hash_key(x->mds[i], hash, hlen, key))))
			return &e->file;
	}
	return NULL;
}

const struct audit_pkgfile *audit_index_ima(const struct audit_index *x,
					    const uint8_t *value, size_t len)
{
	return audit_keymap_get(x->ima, value, len);
}
