// SPDX-License-Identifier: MIT
/*
 * Keys, certificates and PKCS#7 with OpenSSL. libfsverity can sign too, but
 * it reads the key and certificate files again for every signature; a
 * package of thousands of files wants them parsed once and shared by all
 * signing threads.
 */
#include "signing_key.h"
#include "pkcs11_key.h"
#include "sign_template.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/pkcs7.h>
#include <openssl/rsa.h>
#include <rpm/rpmstring.h>

struct signing_key {
	EVP_PKEY *pkey;
	X509 *cert;
	char *name;		/* the file, or the URI without its PIN */
	struct pkcs11_key *token;	/* set when the key is in a token */
	pthread_mutex_t *lock;	/* token sessions are signed through one at a time */
	struct sign_template *tmpl;	/* RSA in memory: the fast way (sign_template.h) */
};

/* Signatures carry no certificates: the caller's are the only candidates. */
#define SIGNER_FLAGS (PKCS7_NOVERIFY | PKCS7_BINARY | PKCS7_NOINTERN | \
		      PKCS7_NOCHAIN)

#define SIGN_FLAGS (PKCS7_BINARY | PKCS7_DETACHED | PKCS7_NOATTR | \
		    PKCS7_NOCERTS | PKCS7_PARTIAL)

static const char *ssl_reason(void)
{
	unsigned long e = ERR_peek_last_error();
	const char *r = e ? ERR_reason_error_string(e) : NULL;

	return r ? r : "unknown OpenSSL error";
}

/*
 * Why a signature failed, as "KEY: cannot sign: " and every error this
 * thread's OpenSSL queue holds (libp11 queues the token's there too: a
 * dropped session, a key gone from the token), oldest first; the queue is
 * left empty. Without it the user could not tell a token that went away
 * from a key OpenSSL refuses.
 */
static void sign_failure(const struct signing_key *key, const char *what,
			 char **err)
{
	char *reasons = NULL, buf[256];
	const char *data;
	unsigned long e;
	int flags;

	while ((e = ERR_get_error_all(NULL, NULL, NULL, &data, &flags))) {
		ERR_error_string_n(e, buf, sizeof(buf));
		reasons = rstrscat(&reasons, reasons ? "; " : "", buf, NULL);
		if ((flags & ERR_TXT_STRING) && data && *data)
			reasons = rstrscat(&reasons, " (", data, ")", NULL);
	}
	rasprintf(err, "%s: cannot sign: %s", key->name,
		  what ? what : reasons ? reasons : "no reason given by OpenSSL");
	free(reasons);
}

X509 *load_certificate(const char *path, char **err)
{
	BIO *bio = BIO_new_file(path, "rb");
	X509 *cert;

	if (!bio) {
		rasprintf(err, "%s: cannot read certificate: %s", path,
			  strerror(errno ? errno : EIO));
		return NULL;
	}
	cert = PEM_read_bio_X509(bio, NULL, NULL, NULL);
	if (!cert) {
		(void)BIO_reset(bio);
		cert = d2i_X509_bio(bio, NULL);
	}
	BIO_free(bio);
	ERR_clear_error();
	if (!cert)
		rasprintf(err, "%s: not a PEM or DER X.509 certificate", path);
	return cert;
}

struct passphrase {
	const char *text;
	int asked;
};

static int passphrase_cb(char *buf, int size, int rwflag, void *u)
{
	struct passphrase *pw = u;
	size_t len;

	(void)rwflag;
	pw->asked = 1;
	if (!pw->text)
		return -1;	/* never prompt on a terminal */
	len = strlen(pw->text);
	if (len > (size_t)size)
		return -1;
	memcpy(buf, pw->text, len);
	return (int)len;
}

/* The key types the kernel verifies fs-verity signatures with. */
static int check_key_type(EVP_PKEY *pkey, const char *path, char **err)
{
	char group[64] = "";

	switch (EVP_PKEY_get_base_id(pkey)) {
	case EVP_PKEY_RSA: {
		int bits = EVP_PKEY_get_bits(pkey);

		if (bits >= 2048 && bits <= 4096)
			return 0;
		rasprintf(err, "%s: RSA key of %d bits; use 2048 to 4096",
			  path, bits);
		return -1;
	}
	case EVP_PKEY_EC:
		EVP_PKEY_get_group_name(pkey, group, sizeof(group), NULL);
		if (!strcmp(group, "prime256v1") || !strcmp(group, "secp384r1"))
			return 0;
		rasprintf(err, "%s: ECDSA key on curve %s; the kernel verifies P-256 and P-384",
			  path, group[0] ? group : "(unknown)");
		return -1;
	default:
		rasprintf(err, "%s: unsupported key type %s; use RSA or ECDSA",
			  path, OBJ_nid2sn(EVP_PKEY_get_base_id(pkey)));
		return -1;
	}
}

static EVP_PKEY *load_pem_key(const char *keypath, const char *passphrase,
			      char **err)
{
	struct passphrase pw = { .text = passphrase };
	struct stat st;
	EVP_PKEY *pkey;
	BIO *bio;

	if (stat(keypath, &st) == 0 && S_ISDIR(st.st_mode)) {
		rasprintf(err, "%s: is a directory, not a signing key", keypath);
		return NULL;
	}
	errno = 0;
	bio = BIO_new_file(keypath, "rb");
	if (!bio) {
		rasprintf(err, "%s: cannot read signing key: %s", keypath,
			  strerror(errno ? errno : EIO));
		return NULL;
	}
	pkey = PEM_read_bio_PrivateKey(bio, NULL, passphrase_cb, &pw);
	BIO_free(bio);
	if (pkey)
		return pkey;
	if (pw.asked && !passphrase)
		rasprintf(err, "%s: key is encrypted; give its passphrase with --pass-file or %%_file_signing_key_password",
			  keypath);
	else if (pw.asked)
		rasprintf(err, "%s: cannot decrypt key: wrong passphrase",
			  keypath);
	else
		rasprintf(err, "%s: not a PEM private key (%s)", keypath,
			  ssl_reason());
	return NULL;
}

/*
 * OpenSSL's PKCS#7 signer compares key and certificate itself, so a pair
 * that does not match cannot sign at all; say so first. A signature the
 * certificate verifies then proves that the key (or the token) works.
 */
static int check_pair(const struct signing_key *key, const char *certpath,
		      char **err)
{
	static const uint8_t probe[VERITY_MAX_DIGEST_SIZE];
	const struct verity_hash_alg *alg = verity_hash_alg_by_id(1);
	uint8_t *der = NULL;
	char *why = NULL;
	int len;

	if (!X509_check_private_key(key->cert, key->pkey)) {
		/* libp11 learns an EC key's public point from a public key object */
		rasprintf(err, "%s: certificate does not match the key %s%s",
			  certpath, key->name,
			  key->token && EVP_PKEY_get_base_id(key->pkey) == EVP_PKEY_EC ?
			  " (or the token holds no public key under the key's id, which an ECDSA key needs)" : "");
		return -1;
	}
	len = signing_key_sign(key, alg, probe, &der, err);
	if (len < 0)
		return -1;
	if (verify_signature(key->cert, alg, probe, der, (size_t)len, &why)) {
		rasprintf(err, "%s: certificate does not match the key %s (%s)",
			  certpath, key->name, why);
		free(why);
		OPENSSL_free(der);
		return -1;
	}
	OPENSSL_free(der);
	return 0;
}

struct signing_key *signing_key_load(const char *keypath,
				     const char *certpath,
				     const char *passphrase, char **err)
{
	struct signing_key *key = rcalloc(1, sizeof(*key));

	if (is_pkcs11_uri(keypath)) {
		key->name = pkcs11_uri_for_display(keypath);
		key->pkey = pkcs11_key_load(keypath, passphrase, &key->token,
					    err);
		if (key->pkey)
			key->lock = pkcs11_key_lock(key->token);
	} else {
		key->name = rstrdup(keypath);
		key->pkey = load_pem_key(keypath, passphrase, err);
	}
	if (!key->pkey)
		goto fail;
	if (check_key_type(key->pkey, key->name, err))
		goto fail;
	key->cert = load_certificate(certpath, err);
	if (!key->cert)
		goto fail;
	/* One signature now: proves the pair works before any package is read. */
	if (check_pair(key, certpath, err))
		goto fail;
	if (!key->token)
		key->tmpl = sign_template_new(key, key->pkey);
	ERR_clear_error();
	return key;
fail:
	ERR_clear_error();
	signing_key_free(key);
	return NULL;
}

void signing_key_free(struct signing_key *key)
{
	if (!key)
		return;
	sign_template_free(key->tmpl);
	if (key->token)
		pkcs11_key_free(key->token);	/* owns pkey */
	else
		EVP_PKEY_free(key->pkey);
	X509_free(key->cert);
	free(key->name);
	free(key);
}

const char *signing_key_name(const struct signing_key *key)
{
	return key->name;
}

X509 *signing_key_cert(const struct signing_key *key)
{
	return key->cert;
}

const char *signing_key_type(const struct signing_key *key, char *buf,
			     size_t len)
{
	char group[64] = "";

	if (EVP_PKEY_get_base_id(key->pkey) == EVP_PKEY_RSA) {
		snprintf(buf, len, "RSA-%d", EVP_PKEY_get_bits(key->pkey));
	} else {
		EVP_PKEY_get_group_name(key->pkey, group, sizeof(group), NULL);
		snprintf(buf, len, "ECDSA %s", !strcmp(group, "prime256v1") ?
			 "P-256" : !strcmp(group, "secp384r1") ? "P-384" : group);
	}
	return buf;
}

static int pkcs7_sign_digest(const struct signing_key *key,
			     const struct verity_hash_alg *alg,
			     const uint8_t *digest, uint8_t **der, char **err)
{
	uint8_t formatted[VERITY_FORMATTED_DIGEST_MAX];
	size_t flen = verity_format_digest(alg, digest, formatted);
	const EVP_MD *md = EVP_get_digestbyname(alg->name);
	BIO *in = BIO_new_mem_buf(formatted, (int)flen);
	const char *what = NULL;
	PKCS7 *p7 = NULL;
	int len = -1, ok;

	*der = NULL;
	if (!md || !in)
		goto out;
	p7 = PKCS7_sign(NULL, NULL, NULL, NULL, SIGN_FLAGS);
	if (!p7 || !PKCS7_sign_add_signer(p7, key->cert, key->pkey, md,
					  SIGN_FLAGS))
		goto out;
	if (key->lock)
		pthread_mutex_lock(key->lock);
	ok = PKCS7_final(p7, in, SIGN_FLAGS) == 1;
	if (key->lock)
		pthread_mutex_unlock(key->lock);
	if (!ok)
		goto out;
	len = i2d_PKCS7(p7, der);
	if (len <= 0 || len > VERITY_MAX_SIG_SIZE) {
		if (len > 0)
			what = "signature larger than the kernel accepts";
		OPENSSL_free(*der);
		*der = NULL;
		len = -1;
	}
out:
	if (len < 0)
		sign_failure(key, md ? what : "OpenSSL knows no such digest",
			     err);
	PKCS7_free(p7);
	BIO_free(in);
	return len;
}

int signing_key_sign(const struct signing_key *key,
		     const struct verity_hash_alg *alg, const uint8_t *digest,
		     uint8_t **der, char **err)
{
	int len;

	if (key->tmpl && (len = sign_template_sign(key->tmpl, alg, digest,
						   der)) > 0)
		return len;
	return pkcs7_sign_digest(key, alg, digest, der, err);
}

int signing_key_sign_hash(const struct signing_key *key,
			  const struct verity_hash_alg *alg,
			  const uint8_t *hash, size_t hlen, uint8_t *sig,
			  size_t *siglen, char **err)
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(key->pkey, NULL);
	const EVP_MD *md = EVP_get_digestbyname(alg->name);
	int ok;

	ok = ctx && md && EVP_PKEY_sign_init(ctx) > 0 &&
	     EVP_PKEY_CTX_set_signature_md(ctx, md) > 0 &&
	     (EVP_PKEY_get_base_id(key->pkey) != EVP_PKEY_RSA ||
	      EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_PADDING) > 0);
	if (ok) {
		if (key->lock)
			pthread_mutex_lock(key->lock);
		ok = EVP_PKEY_sign(ctx, sig, siglen, hash, hlen) > 0;
		if (key->lock)
			pthread_mutex_unlock(key->lock);
	}
	if (!ok)
		sign_failure(key, md ? NULL : "OpenSSL knows no such digest",
			     err);
	EVP_PKEY_CTX_free(ctx);
	ERR_clear_error();
	return ok ? 0 : -1;
}

/* Whether @alg names a digest the kernel verifies PKCS#7 signatures with. */
static bool accepted_digest(const X509_ALGOR *alg)
{
	static const int nids[] = {
		NID_sha1, NID_sha224, NID_sha256, NID_sha384, NID_sha512
	};
	int nid = alg ? OBJ_obj2nid(alg->algorithm) : NID_undef;

	for (size_t i = 0; i < sizeof(nids) / sizeof(nids[0]); i++)
		if (nid == nids[i])
			return true;
	return false;
}

/*
 * Every digest algorithm a SignedData names, in its digestAlgorithms set
 * and in each SignerInfo, must be one we know. Checked before
 * PKCS7_verify(), which leaks memory on its error path when handed an
 * unknown one (OpenSSL 3.0).
 */
static bool digests_accepted(PKCS7 *p7)
{
	STACK_OF(X509_ALGOR) *md_algs = p7->d.sign ? p7->d.sign->md_algs : NULL;
	STACK_OF(PKCS7_SIGNER_INFO) *infos = PKCS7_get_signer_info(p7);

	if (!md_algs || !infos || sk_PKCS7_SIGNER_INFO_num(infos) < 1)
		return false;
	for (int i = 0; i < sk_X509_ALGOR_num(md_algs); i++)
		if (!accepted_digest(sk_X509_ALGOR_value(md_algs, i)))
			return false;
	for (int i = 0; i < sk_PKCS7_SIGNER_INFO_num(infos); i++) {
		X509_ALGOR *dig = NULL;

		PKCS7_SIGNER_INFO_get0_algs(sk_PKCS7_SIGNER_INFO_value(infos, i),
					    NULL, &dig, NULL);
		if (!accepted_digest(dig))
			return false;
	}
	return true;
}

PKCS7 *signature_parse(const uint8_t *der, size_t len, char **why)
{
	const uint8_t *p = der;
	PKCS7 *p7 = d2i_PKCS7(NULL, &p, (long)len);

	if (!p7 || p != der + len || !PKCS7_type_is_signed(p7)) {
		rasprintf(why, "signature is not a DER PKCS#7 SignedData");
		PKCS7_free(p7);
		p7 = NULL;
	}
	ERR_clear_error();
	return p7;
}

int signature_signer(PKCS7 *p7, X509 *const *certs, size_t n)
{
	STACK_OF(X509) *stack = sk_X509_new_null();
	STACK_OF(X509) *signers = NULL;
	int found = -1;

	for (size_t i = 0; stack && i < n; i++)
		if (!sk_X509_push(stack, certs[i]))
			goto out;
	if (!stack || !(signers = PKCS7_get0_signers(p7, stack, SIGNER_FLAGS)))
		goto out;
	/* fs-verity signatures carry exactly one SignerInfo. */
	for (size_t i = 0; found < 0 && i < n; i++)
		if (sk_X509_value(signers, 0) == certs[i])
			found = (int)i;
out:
	sk_X509_free(signers);
	sk_X509_free(stack);
	ERR_clear_error();
	return found;
}

int signature_check(PKCS7 *p7, X509 *cert, const struct verity_hash_alg *alg,
		    const uint8_t *digest, char **why)
{
	uint8_t formatted[VERITY_FORMATTED_DIGEST_MAX];
	size_t flen = verity_format_digest(alg, digest, formatted);
	STACK_OF(X509) *certs = sk_X509_new_null();
	BIO *content = BIO_new_mem_buf(formatted, (int)flen);
	int rc = -1;

	if (!certs || !content || !sk_X509_push(certs, cert))
		rasprintf(why, "out of memory");
	else if (!digests_accepted(p7))
		rasprintf(why, "signature names an unknown digest algorithm");
	else if (PKCS7_verify(p7, certs, NULL, content, NULL, SIGNER_FLAGS) != 1)
		rasprintf(why, "signature does not match the file's fs-verity digest");
	else
		rc = 0;
	sk_X509_free(certs);
	BIO_free(content);
	ERR_clear_error();
	return rc;
}
