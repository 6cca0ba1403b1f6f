// SPDX-License-Identifier: MIT
/*
 * Puts certificates into the kernel's .fs-verity keyring, the one
 * FS_IOC_ENABLE_VERITY and every later first open of a signed file check
 * signatures against, and applies the trust restriction, the optional lock
 * and require_signatures. Used by the plugin and by rpm-verity-load-certs
 * alike.
 *
 * Before the first certificate, .fs-verity is restricted to certificates
 * signed by a key on the kernel's builtin (or secondary) trusted keyring,
 * the rule the kernel applies to .ima. A restriction can never be lifted
 * or replaced, so whoever restricts first decides: the boot-time loader, in
 * the initramfs. With the lock the keyring instead ends up taking no key at
 * all; a restriction can only be set once, so then the kernel checks each
 * certificate against the trusted keys on its way through the staging
 * keyring instead.
 *
 * A certificate is first parsed by the kernel into a private staging keyring,
 * so the kernel itself computes its key description ("subject: key id");
 * if .fs-verity already holds a key with that description the certificate
 * is not added again, otherwise the parsed key is linked into .fs-verity.
 * That keeps repeated transactions and boots from piling up or replacing
 * keys, and a locked keyring that already holds the certificate is not an
 * error.
 */
#include "verity_keyring.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include <keyutils.h>
#include <openssl/bio.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#define LOG(o, level, ...) (o)->log((o)->log_ctx, (level), __VA_ARGS__)

/* The description part of keyctl_describe's "type;uid;gid;perm;desc". */
static char *key_description(key_serial_t key, char **type_out)
{
	char *raw = NULL, *p, *desc = NULL;
	int fields = 0;

	if (keyctl_describe_alloc(key, &raw) < 0)
		return NULL;
	for (p = raw; *p && fields < 4; p++)
		if (*p == ';')
			fields++;
	if (fields == 4) {
		desc = strdup(p);
		if (type_out) {
			*strchr(raw, ';') = '\0';
			*type_out = strdup(raw);
		}
	}
	free(raw);
	return desc;
}

/* Whether ring holds an asymmetric key described as want_desc; its size. */
static bool keyring_has(key_serial_t ring, const char *want_desc,
			unsigned int *nkeys)
{
	key_serial_t *keys = NULL;
	int len = keyctl_read_alloc(ring, (void **)&keys);
	bool found = false;
	int n = len > 0 ? len / (int)sizeof(*keys) : 0;

	if (nkeys)
		*nkeys = (unsigned int)n;
	for (int i = 0; want_desc && !found && i < n; i++) {
		char *type = NULL, *desc = key_description(keys[i], &type);

		found = desc && type && strcmp(type, "asymmetric") == 0 &&
			strcmp(desc, want_desc) == 0;
		free(desc);
		free(type);
	}
	free(keys);
	return found;
}

/* The CA file of a "ca:FILE" trust; NULL for the others. */
static const char *trust_ca_file(const char *trust)
{
	size_t n = strlen(VERITY_TRUST_CA_PREFIX);

	return strncmp(trust, VERITY_TRUST_CA_PREFIX, n) == 0 ? trust + n :
								NULL;
}

bool verity_trust_valid(const char *name)
{
	const char *ca = name ? trust_ca_file(name) : NULL;

	if (ca)
		return ca[0] == '/' && strpbrk(ca, " \t\n") == NULL;
	return name && (strcmp(name, VERITY_TRUST_DEFAULT) == 0 ||
			strcmp(name, VERITY_TRUST_BUILTIN) == 0 ||
			strcmp(name, VERITY_TRUST_NONE) == 0);
}

const char *verity_restriction_describe(const struct verity_keyring_result *r,
					char *buf, size_t size)
{
	switch (r->restriction) {
	case VERITY_RESTRICTION_TRUST:
		if (trust_ca_file(r->trusted))
			snprintf(buf, size, "keyring restricted to certificates "
				 "signed by the CA in %s",
				 trust_ca_file(r->trusted));
		else
			snprintf(buf, size, "keyring restricted to certificates "
				 "signed by %s keys", r->trusted);
		return buf;
	case VERITY_RESTRICTION_LOCKED:
		return "keyring locked";
	case VERITY_RESTRICTION_EARLIER:
		return "keyring restricted before this run";
	case VERITY_RESTRICTION_NONE:
		break;
	}
	return "keyring open to any certificate";
}

static const char *add_key_reason(const struct verity_keyring_opts *o,
				  int err)
{
	switch (err) {
	case ENOKEY:
		if (o->trust && trust_ca_file(o->trust))
			return "not signed by the keyring's CA (trust ca:)";
		return "not signed by a key the kernel trusts (its builtin or "
		       "secondary trusted keyring)";
	case EBADMSG:
		return "the kernel cannot parse it as an X.509 certificate";
	case ENOPKG:
		return "the kernel lacks its key or hash algorithm";
	case EKEYREJECTED:
		return "the kernel rejected it (a bad signature, or one by a "
		       "key it does not trust)";
	default:
		return strerror(err);
	}
}

static bool add_cert(const struct verity_keyring_opts *o,
		     struct verity_keyring_result *r, const char *file,
		     const unsigned char *der, int len, key_serial_t ring,
		     key_serial_t staging)
{
	key_serial_t key = add_key("asymmetric", "", der, (size_t)len, staging);
	char *desc;
	bool ok = true;

	if (key < 0) {
		LOG(o, o->fail_level, "verity: certificate %s not loaded: %s\n",
		    file, add_key_reason(o, errno));
		r->failed++;
		return false;
	}
	desc = key_description(key, NULL);
	if (desc && keyring_has(ring, desc, NULL)) {
		LOG(o, LOG_DEBUG, "verity: certificate %s (%s) already in "
		    ".fs-verity keyring\n", file, desc);
		r->present++;
	} else if (o->check_only) {
		LOG(o, LOG_NOTICE, "verity: certificate %s (%s) is not in "
		    ".fs-verity keyring\n", file, desc ? desc : "?");
		r->missing++;
	} else if (keyctl_link(key, ring) < 0) {
		LOG(o, o->fail_level, "verity: certificate %s not added to "
		    ".fs-verity keyring: %s\n", file,
		    errno == EPERM || errno == EACCES ?
		    "the keyring is locked or not writable" :
		    add_key_reason(o, errno));
		r->failed++;
		ok = false;
	} else {
		LOG(o, LOG_INFO, "verity: certificate %s (%s) added to "
		    ".fs-verity keyring\n", file, desc ? desc : "?");
		r->added++;
	}
	free(desc);
	keyctl_unlink(key, staging);
	return ok;
}

static unsigned char *read_file(const char *path, long *len_out)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t cap = 0, len = 0, n;

	if (f == NULL)
		return NULL;
	do {
		if (len == cap) {
			unsigned char *nb = realloc(buf, cap ? cap * 2 : 8192);

			if (nb == NULL) {
				free(buf);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
			cap = cap ? cap * 2 : 8192;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n > 0 && len < (1 << 20));
	if (ferror(f) || len >= (1 << 20)) {
		int err = ferror(f) ? EIO : EFBIG;

		free(buf);
		fclose(f);
		errno = err;
		return NULL;
	}
	fclose(f);
	*len_out = (long)len;
	return buf;
}

/* The certificates to load, DER encoded, each with the file it came from. */
struct cert_list {
	size_t n;
	struct cert {
		char *file;
		unsigned char *der;	/* OPENSSL_malloc'ed */
		int len;
	} *certs;
};

static bool cert_list_add(struct cert_list *l, const char *file, X509 *x)
{
	struct cert *grown = realloc(l->certs, (l->n + 1) * sizeof(*grown));
	unsigned char *der = NULL;
	int len;

	if (grown == NULL)
		return false;
	l->certs = grown;
	len = i2d_X509(x, &der);
	if (len <= 0)
		return false;
	l->certs[l->n++] = (struct cert){
		.file = strdup(file), .der = der, .len = len,
	};
	return l->certs[l->n - 1].file != NULL;
}

static void cert_list_free(struct cert_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		OPENSSL_free(l->certs[i].der);
		free(l->certs[i].file);
	}
	free(l->certs);
}

/* Each certificate in a PEM file, or the one DER certificate. */
static bool read_cert_file(const struct verity_keyring_opts *o,
			   const char *file, struct cert_list *l)
{
	long len = 0;
	unsigned char *data = read_file(file, &len);
	size_t before = l->n;
	bool ok = true;
	X509 *cert;

	if (data == NULL) {
		LOG(o, o->fail_level, "verity: cannot read certificate %s: "
		    "%s\n", file, strerror(errno));
		return false;
	}
	if (memmem(data, (size_t)len, "-----BEGIN", 10) != NULL) {
		BIO *bio = BIO_new_mem_buf(data, (int)len);

		while (ok && bio &&
		       (cert = PEM_read_bio_X509(bio, NULL, NULL, NULL))) {
			ok = cert_list_add(l, file, cert);
			X509_free(cert);
		}
		BIO_free(bio);
	} else {
		const unsigned char *p = data;

		cert = d2i_X509(NULL, &p, len);
		if (cert != NULL)
			ok = cert_list_add(l, file, cert);
		X509_free(cert);
	}
	free(data);
	if (ok && l->n == before) {
		LOG(o, o->fail_level, "verity: %s holds no X.509 certificate "
		    "(PEM or DER)\n", file);
		return false;
	}
	return ok;
}

static bool read_certs(const struct verity_keyring_opts *o,
		       struct cert_list *l, struct verity_keyring_result *r)
{
	char *copy = strdup(o->certs ? o->certs : ""), *save = NULL, *file;
	bool ok = copy != NULL;

	for (file = ok ? strtok_r(copy, " \t\n", &save) : NULL; file;
	     file = strtok_r(NULL, " \t\n", &save)) {
		r->files++;
		if (!read_cert_file(o, file, l)) {
			r->failed++;
			ok = false;
		}
	}
	free(copy);
	r->certs = (unsigned int)l->n;
	return ok;
}

/*
 * trust "ca:FILE": ring takes only certificates the CA in FILE signed. The
 * kernel parses the CA's certificate into the process keyring and the
 * restriction keeps a reference of its own, so the key is unlinked again.
 * The kernel does not check the CA against its trusted keys (it should
 * chain to none of them). 0 or an errno.
 */
static int restrict_to_ca(const struct verity_keyring_opts *o,
			  key_serial_t ring, const char *file)
{
	struct cert_list l = { 0 };
	char restriction[32];
	key_serial_t ca;
	int err = 0;

	if (!read_cert_file(o, file, &l)) {
		err = errno ? errno : EINVAL;
	} else if (l.n != 1) {
		LOG(o, o->fail_level, "verity: %s holds %zu certificates; "
		    "the CA's file must hold one\n", file, l.n);
		err = EINVAL;
	} else if ((ca = add_key("asymmetric", "", l.certs[0].der,
				 (size_t)l.certs[0].len,
				 KEY_SPEC_PROCESS_KEYRING)) < 0) {
		err = errno;
	} else {
		snprintf(restriction, sizeof(restriction), "key_or_keyring:%d",
			 (int)ca);
		if (keyctl_restrict_keyring(ring, "asymmetric",
					    restriction) < 0)
			err = errno;
		keyctl_unlink(ca, KEY_SPEC_PROCESS_KEYRING);
	}
	cert_list_free(&l);
	return err;
}

/*
 * Restricts ring to certificates signed by trust's keys: 0 or an errno.
 * A kernel without a secondary trusted keyring does not know
 * builtin_and_secondary_trusted (EINVAL); it trusts its builtin keys only,
 * and that, the stricter rule, is applied then. *used says which.
 */
static int restrict_to_trusted(const struct verity_keyring_opts *o,
			       key_serial_t ring, const char *trust,
			       const char **used)
{
	*used = trust;
	if (trust_ca_file(trust))
		return restrict_to_ca(o, ring, trust_ca_file(trust));
	if (keyctl_restrict_keyring(ring, "asymmetric", trust) == 0)
		return 0;
	if (errno != EINVAL || strcmp(trust, VERITY_TRUST_DEFAULT) != 0)
		return errno;
	*used = VERITY_TRUST_BUILTIN;
	return keyctl_restrict_keyring(ring, "asymmetric", *used) == 0 ? 0 :
									 errno;
}

static bool load_certs(const struct verity_keyring_opts *o,
		       struct verity_keyring_result *r,
		       const struct cert_list *l, key_serial_t ring,
		       const char *trust)
{
	key_serial_t staging;
	const char *used;
	bool ok = true;
	int err;

	if (l->n == 0)
		return true;
	staging = add_key("keyring", "rpm-verity:staging", NULL, 0,
			  KEY_SPEC_PROCESS_KEYRING);
	if (staging < 0) {
		LOG(o, o->fail_level, "verity: cannot create a staging "
		    "keyring: %s\n", strerror(errno));
		return false;
	}
	/* The kernel checks each certificate here, whatever .fs-verity is. */
	if (strcmp(trust, VERITY_TRUST_NONE) != 0 &&
	    (err = restrict_to_trusted(o, staging, trust, &used)) != 0) {
		LOG(o, o->fail_level, "verity: cannot restrict a staging "
		    "keyring to %s keys: %s; no certificate loaded\n", trust,
		    strerror(err));
		keyctl_unlink(staging, KEY_SPEC_PROCESS_KEYRING);
		return false;
	}
	for (size_t i = 0; i < l->n; i++)
		ok &= add_cert(o, r, l->certs[i].file, l->certs[i].der,
			       l->certs[i].len, ring, staging);
	keyctl_unlink(staging, KEY_SPEC_PROCESS_KEYRING);
	return ok;
}

/* Before the first certificate: only trust's keys may sign one. */
static bool restrict_keyring(const struct verity_keyring_opts *o,
			     struct verity_keyring_result *r, key_serial_t ring,
			     const char *trust)
{
	int err;

	if (strcmp(trust, VERITY_TRUST_NONE) == 0) {
		LOG(o, LOG_WARNING, "verity: .fs-verity keyring left open to "
		    "any certificate (%%_fsverity_keyring_trust none)\n");
		return true;
	}
	err = restrict_to_trusted(o, ring, trust, &r->trusted);
	if (err == 0) {
		r->restriction = VERITY_RESTRICTION_TRUST;
		LOG(o, LOG_DEBUG, "verity: .fs-verity keyring restricted to "
		    "certificates signed by %s keys\n", r->trusted);
		return true;
	}
	/* EEXIST: restricted already, by the boot-time loader as a rule. */
	if (err == EEXIST) {
		r->restriction = VERITY_RESTRICTION_EARLIER;
		return true;
	}
	LOG(o, o->fail_level, "verity: cannot restrict .fs-verity keyring to "
	    "certificates signed by %s keys: %s; no certificate loaded\n",
	    trust, strerror(err));
	return false;
}

static bool lock_keyring(const struct verity_keyring_opts *o,
			 struct verity_keyring_result *r, key_serial_t ring)
{
	if (keyctl_restrict_keyring(ring, NULL, NULL) == 0) {
		LOG(o, LOG_DEBUG, "verity: .fs-verity keyring locked\n");
		r->restriction = VERITY_RESTRICTION_LOCKED;
		return true;
	}
	/* EEXIST: it carries a restriction already, which cannot change. */
	if (errno == EEXIST) {
		r->restriction = VERITY_RESTRICTION_EARLIER;
		return true;
	}
	LOG(o, o->fail_level, "verity: cannot lock .fs-verity keyring: %s\n",
	    strerror(errno));
	return false;
}

static bool require_signatures(const struct verity_keyring_opts *o,
			       struct verity_keyring_result *r)
{
	int fd = open(VERITY_REQUIRE_SIGNATURES_SYSCTL, O_WRONLY | O_CLOEXEC);
	bool ok = fd >= 0 && write(fd, "1\n", 2) == 2;

	if (!ok)
		LOG(o, o->fail_level, "verity: cannot set %s: %s\n",
		    VERITY_REQUIRE_SIGNATURES_SYSCTL, strerror(errno));
	if (fd >= 0)
		close(fd);
	r->required = ok;
	return ok;
}

enum verity_keyring_rc verity_keyring_load(const struct verity_keyring_opts *o,
					   struct verity_keyring_result *r)
{
	const char *trust = o->trust ? o->trust : VERITY_TRUST_DEFAULT;
	struct cert_list certs = { 0 };
	enum verity_keyring_rc rc = VERITY_KEYRING_FAILED;
	key_serial_t ring;
	bool ok;

	*r = (struct verity_keyring_result){ 0 };
	if ((o->certs == NULL || strspn(o->certs, " \t\n") == strlen(o->certs))
	    && !o->lock && !o->require_signatures && !o->check_only)
		return VERITY_KEYRING_OK;
	if (!verity_trust_valid(trust)) {
		LOG(o, o->fail_level, "verity: keyring trust \"%s\" is not "
		    VERITY_TRUST_CHOICES "\n", trust);
		return VERITY_KEYRING_FAILED;
	}
	/* Bad certificate files are reported whatever the kernel can do. */
	if (!read_certs(o, &certs, r))
		goto out;
	ring = find_key_by_type_and_desc("keyring", ".fs-verity", 0);
	if (ring < 0) {
		rc = VERITY_KEYRING_UNSUPPORTED;
		goto out;
	}
	r->reached = true;
	/* With the lock, the staging keyring applies the trust instead. */
	if (!o->check_only && !o->lock && !restrict_keyring(o, r, ring, trust))
		goto out;
	ok = load_certs(o, r, &certs, ring, trust);
	if (!o->check_only && o->lock)
		ok &= lock_keyring(o, r, ring);
	if (!o->check_only && o->require_signatures)
		ok &= require_signatures(o, r);
	keyring_has(ring, NULL, &r->keyring_keys);
	rc = ok ? VERITY_KEYRING_OK : VERITY_KEYRING_FAILED;
out:
	cert_list_free(&certs);
	return rc;
}
