// SPDX-License-Identifier: MIT
/*
 * The signing key through its public API (lib/signing/signing_key.h): a key
 * and certificate made here load, sign what verify accepts and make the
 * same bare signature as OpenSSL asked directly (what IMA values carry);
 * and a signature that fails says why. A user whose token dropped its
 * session needs OpenSSL's reason, not "signing failed", so the message
 * must name the key and carry the reason OpenSSL gives for the same
 * operation, and leave the thread's error queue empty. Also the digest
 * index audit --unowned builds (sig_verifier_recover): an RSA signature
 * gives back the hash of the formatted digest it signs, an ECDSA one
 * nothing.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

#include "../lib/check.h"
#include "sig_verifier.h"
#include "signing_key.h"

static char dir[] = "/tmp/test_signing_key.XXXXXX";

/* @pkey and a self-signed certificate for it, as DIR/NAME.key and .crt. */
static void write_pair(EVP_PKEY *pkey, const char *name, char *keypath,
		       char *certpath)
{
	X509 *cert = X509_new();
	X509_NAME *subject = X509_NAME_new();
	FILE *f;

	X509_set_version(cert, 2);
	ASN1_INTEGER_set(X509_get_serialNumber(cert), 1);
	X509_gmtime_adj(X509_getm_notBefore(cert), 0);
	X509_gmtime_adj(X509_getm_notAfter(cert), 3600);
	X509_NAME_add_entry_by_txt(subject, "CN", MBSTRING_ASC,
				   (const unsigned char *)name, -1, -1, 0);
	X509_set_subject_name(cert, subject);
	X509_set_issuer_name(cert, subject);
	X509_set_pubkey(cert, pkey);
	if (!X509_sign(cert, pkey, EVP_sha256())) {
		fprintf(stderr, "cannot make a certificate\n");
		exit(1);
	}
	sprintf(keypath, "%s/%s.key", dir, name);
	sprintf(certpath, "%s/%s.crt", dir, name);
	f = fopen(keypath, "w");
	if (!f || !PEM_write_PrivateKey(f, pkey, NULL, NULL, 0, NULL, NULL) ||
	    fclose(f))
		exit(1);
	f = fopen(certpath, "w");
	if (!f || !PEM_write_X509(f, cert) || fclose(f))
		exit(1);
	X509_NAME_free(subject);
	X509_free(cert);
}

/* write_pair(), then load it; NULL (checked, reported, @pkey freed) on failure. */
static struct signing_key *load_pair(EVP_PKEY *pkey, const char *name,
				     char *keypath, char *certpath)
{
	struct signing_key *key;
	char *err = NULL;

	write_pair(pkey, name, keypath, certpath);
	key = signing_key_load(keypath, certpath, NULL, &err);
	CHECK(key != NULL);
	if (!key) {
		fprintf(stderr, "%s\n", err);
		free(err);
		EVP_PKEY_free(pkey);
	}
	return key;
}

/* What OpenSSL says when asked to sign @hlen bytes as a SHA-256 hash. */
static char *direct_sign(EVP_PKEY *pkey, const uint8_t *hash, size_t hlen,
			 uint8_t *sig, size_t *siglen)
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(pkey, NULL);
	const char *reason = NULL;
	int ok;

	ok = EVP_PKEY_sign_init(ctx) > 0 &&
	     EVP_PKEY_CTX_set_signature_md(ctx, EVP_sha256()) > 0 &&
	     EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_PADDING) > 0 &&
	     EVP_PKEY_sign(ctx, sig, siglen, hash, hlen) > 0;
	if (!ok)
		reason = ERR_reason_error_string(ERR_peek_last_error());
	ERR_clear_error();
	EVP_PKEY_CTX_free(ctx);
	return ok ? NULL : strdup(reason ? reason : "(no reason)");
}

/*
 * Whether the hash recovered from the signature @der by @cert is the one
 * computed for @digest; -1 when nothing can be recovered.
 */
static int recovered_is(X509 *cert, const uint8_t *der, size_t len,
			const struct verity_hash_alg *alg,
			const uint8_t *digest)
{
	struct sig_verifier *v = sig_verifier_new(cert);
	struct verity_sig_parts parts;
	uint8_t got[EVP_MAX_MD_SIZE], want[EVP_MAX_MD_SIZE];
	size_t glen = 0, wlen = 0;
	const char *md;

	if (v && verity_sig_parts(der, len, &parts) &&
	    (md = sig_verifier_md_name(&parts))) {
		glen = sig_verifier_recover(v, &parts, got);
		wlen = sig_verifier_signed_hash(md, alg, digest, want);
	}
	sig_verifier_free(v);
	if (!glen)
		return -1;
	return glen == wlen && memcmp(got, want, glen) == 0;
}

static void test_rsa(void)
{
	const struct verity_hash_alg *sha256 = verity_hash_alg_by_name("sha256");
	EVP_PKEY *pkey = EVP_RSA_gen(2048);
	char keypath[128], certpath[128], type[64], prefix[160];
	uint8_t digest[32] = { 1, 2, 3 }, sig[512], want[512], *der = NULL;
	size_t siglen = sizeof(sig), wantlen = sizeof(want);
	struct signing_key *key;
	char *err = NULL, *why = NULL, *reason;
	int len;

	key = load_pair(pkey, "rsa", keypath, certpath);
	if (!key)
		return;
	CHECK(strcmp(signing_key_name(key), keypath) == 0);
	CHECK(strcmp(signing_key_type(key, type, sizeof(type)), "RSA-2048") == 0);
	CHECK(X509_check_private_key(signing_key_cert(key), pkey) == 1);

	len = signing_key_sign(key, sha256, digest, &der, &err);
	CHECK(len > 0);
	CHECK(len > 0 && verify_signature(signing_key_cert(key), sha256, digest,
					  der, (size_t)len, &why) == 0);
	free(why);
	/* The digest back from the signature, and only that digest. */
	CHECK(len > 0 && recovered_is(signing_key_cert(key), der, (size_t)len,
				      sha256, digest) == 1);
	digest[0] ^= 1;
	CHECK(len > 0 && recovered_is(signing_key_cert(key), der, (size_t)len,
				      sha256, digest) == 0);
	digest[0] ^= 1;
	OPENSSL_free(der);

	/* A bare signature: the same bytes as OpenSSL's (PKCS#1 v1.5). */
	CHECK(signing_key_sign_hash(key, sha256, digest, sizeof(digest), sig,
				    &siglen, &err) == 0);
	CHECK(direct_sign(pkey, digest, sizeof(digest), want, &wantlen) == NULL);
	CHECK(siglen == wantlen && memcmp(sig, want, siglen) == 0);

	/* A hash of the wrong length: OpenSSL refuses, and says why. */
	reason = direct_sign(pkey, digest, 20, want, &wantlen);
	CHECK(reason != NULL);
	siglen = sizeof(sig);
	CHECK(signing_key_sign_hash(key, sha256, digest, 20, sig, &siglen,
				    &err) == -1);
	snprintf(prefix, sizeof(prefix), "%s: cannot sign: ", keypath);
	printf("message: %s\n", err ? err : "(none)");
	CHECK(err && strncmp(err, prefix, strlen(prefix)) == 0);
	CHECK(err && reason && strstr(err + strlen(prefix), reason) != NULL);
	CHECK(ERR_peek_error() == 0);
	free(err);
	free(reason);

	signing_key_free(key);
	EVP_PKEY_free(pkey);
	unlink(keypath);
	unlink(certpath);
}

/*
 * ECDSA signs through PKCS7_sign() (no template): a digest the default
 * provider does not offer fails there, and the message says so.
 */
static void test_pkcs7_failure(void)
{
	struct verity_hash_alg md4 = *verity_hash_alg_by_name("sha256");
	EVP_PKEY *pkey = EVP_EC_gen("P-256");
	char keypath[128], certpath[128], prefix[160];
	uint8_t digest[32] = { 4, 5, 6 }, *der = NULL;
	struct signing_key *key;
	char *err = NULL;
	int len;

	key = load_pair(pkey, "ec", keypath, certpath);
	if (!key)
		return;
	/* ECDSA: a valid signature, but no digest to recover from it. */
	len = signing_key_sign(key, &md4, digest, &der, &err);
	CHECK(len > 0);
	CHECK(len > 0 && recovered_is(signing_key_cert(key), der, (size_t)len,
				      &md4, digest) == -1);
	OPENSSL_free(der);
	der = NULL;
	md4.name = "md4";
	CHECK(signing_key_sign(key, &md4, digest, &der, &err) == -1);
	CHECK(der == NULL);
	printf("message: %s\n", err ? err : "(none)");
	snprintf(prefix, sizeof(prefix), "%s: cannot sign: error:", keypath);
	CHECK(err && strncmp(err, prefix, strlen(prefix)) == 0);
	CHECK(ERR_peek_error() == 0);
	free(err);

	signing_key_free(key);
	signing_key_free(NULL);
	EVP_PKEY_free(pkey);
	unlink(keypath);
	unlink(certpath);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror(dir);
		return 1;
	}
	test_rsa();
	test_pkcs7_failure();
	rmdir(dir);
	return check_report();
}
