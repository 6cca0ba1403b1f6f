// SPDX-License-Identifier: MIT
/*
 * Unit tests for common/cert_file.c: every certificate of a PEM bundle, the
 * one of a DER file, and the reasons a file gives none. The certificates
 * are made here with OpenSSL, so the test needs no file of its own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include "../lib/check.h"
#include "cert_file.h"

static X509 *make_cert(const char *cn)
{
	EVP_PKEY *key = EVP_EC_gen("P-256");
	X509 *x = X509_new();
	X509_NAME *name = X509_get_subject_name(x);

	X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
				   (const unsigned char *)cn, -1, -1, 0);
	X509_set_issuer_name(x, name);
	ASN1_INTEGER_set(X509_get_serialNumber(x), 1);
	X509_gmtime_adj(X509_getm_notBefore(x), 0);
	X509_gmtime_adj(X509_getm_notAfter(x), 3600);
	X509_set_pubkey(x, key);
	X509_sign(x, key, EVP_sha256());
	EVP_PKEY_free(key);
	return x;
}

static char *cn_of(X509 *x)
{
	static char buf[64];

	X509_NAME_get_text_by_NID(X509_get_subject_name(x), NID_commonName,
				  buf, sizeof(buf));
	return buf;
}

int main(void)
{
	char dir[] = "/tmp/test_cert_file.XXXXXX", pem[64], der[64], junk[64];
	char why[256];
	X509 *a = make_cert("old"), *b = make_cert("new"), **got = NULL;
	size_t n = 0;
	FILE *f;

	if (!mkdtemp(dir))
		return 1;
	snprintf(pem, sizeof(pem), "%s/bundle.pem", dir);
	snprintf(der, sizeof(der), "%s/one.der", dir);
	snprintf(junk, sizeof(junk), "%s/junk.pem", dir);
	f = fopen(pem, "w");
	PEM_write_X509(f, a);
	PEM_write_X509(f, b);
	fclose(f);
	f = fopen(der, "wb");
	i2d_X509_fp(f, b);
	fclose(f);
	f = fopen(junk, "w");
	fputs("-----BEGIN CERTIFICATE-----\nnot base64\n", f);
	fclose(f);

	/* A bundle during a key rotation: both, in order. */
	CHECK(cert_file_read(pem, &got, &n, why, sizeof(why)) == 2);
	CHECK(n == 2 && !strcmp(cn_of(got[0]), "old") && !strcmp(cn_of(got[1]), "new"));
	/* Appended to what is there. */
	CHECK(cert_file_read(der, &got, &n, why, sizeof(why)) == 1);
	CHECK(n == 3 && X509_cmp(got[2], b) == 0);
	/* None: the file and the reason named, nothing added. */
	CHECK(cert_file_read(junk, &got, &n, why, sizeof(why)) == 0 && n == 3);
	CHECK(strstr(why, junk) && strstr(why, "not a PEM or DER"));
	CHECK(cert_file_read("/nonexistent/cert.pem", &got, &n, why, sizeof(why)) == 0);
	CHECK(strstr(why, "/nonexistent/cert.pem: cannot read certificate"));
	CHECK(n == 3);

	for (size_t i = 0; i < n; i++)
		X509_free(got[i]);
	free(got);
	X509_free(a);
	X509_free(b);
	unlink(pem);
	unlink(der);
	unlink(junk);
	rmdir(dir);
	return check_report();
}
