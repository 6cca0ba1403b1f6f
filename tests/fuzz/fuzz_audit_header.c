// SPDX-License-Identifier: MIT
/*
 * Fuzz target: an installed package's header as `rpm-verity audit` reads it
 * from the rpmdb (audit/audit_rpmdb.c, through the common tag decoder),
 * then every protected file's signature entry through the audit's
 * signature cache (PKCS#7 shape, signer lookup, a check against a fixed
 * digest) and its IMA entry.
 * The rpmdb is outside bytes too: a tampered database must not crash the
 * tool that is meant to find tampering.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/pem.h>
#include <rpm/header.h>

#include "audit.h"
#include "fuzz.h"

static X509 *fuzz_cert(void)
{
	static X509 *cert;
	FILE *f;

	if (cert)
		return cert;
	f = fopen(FUZZ_DIR "/key/cert.pem", "r");
	if (!f || !(cert = PEM_read_X509(f, NULL, NULL, NULL)))
		FUZZ_FAIL("%s/key/cert.pem: cannot read the fuzz certificate", FUZZ_DIR);
	fclose(f);
	return cert;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t digest[VERITY_MAX_DIGEST_SIZE];
	X509 *cert = fuzz_cert();
	struct audit_sigcache *cache;
	struct audit_pkg pkg;
	uint8_t ima[4096];
	char *err = NULL;
	Header h;

	if (size < 8 || size > 0x0fffffff)
		return 0;
	h = headerImport((void *)data, (unsigned int)size, HEADERIMPORT_COPY);
	if (!h)
		return 0;
	cache = audit_sigcache_new(&cert, 1);
	if (!cache)
		FUZZ_FAIL("audit_sigcache_new returned NULL");
	if (audit_pkg_load(&pkg, h, NULL, false, &err) == 0 && pkg.has_sigs) {
		for (int i = 0; i < pkg.nfiles; i++) {
			const char *why = NULL;
			const struct file_sig *sig;

			if (!audit_pkg_wants(&pkg, i, &why))
				continue;
			sig = audit_pkg_sig(&pkg, i);
			if (!sig)
				FUZZ_FAIL("file %d: no entry", i);
			if (sig->state == FILE_SIG_MALFORMED && !sig->problem)
				FUZZ_FAIL("file %d: malformed without a reason", i);
			if (sig->state == FILE_SIG_OK &&
			    audit_sigcache_signer(cache, sig->bytes, sig->len) ==
					    AUDIT_SIG_OK)
				audit_sigcache_check(cache, pkg.alg, digest);
			if (audit_pkg_ima(&pkg, i, ima, sizeof(ima)) > (ssize_t)sizeof(ima))
				FUZZ_FAIL("file %d: IMA entry longer than its buffer", i);
		}
	}
	free(err);
	audit_pkg_free(&pkg);
	audit_sigcache_free(cache);
	headerFree(h);
	return 0;
}
