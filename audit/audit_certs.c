// SPDX-License-Identifier: MIT
/*
 * The certificates an audit trusts, loaded from their files. The audit of
 * packages loads them before it starts, --unowned only once a signed file
 * turns up at a path no package owns; both report every file that does not
 * load, so a user fixes them all at once.
 */
#include "audit.h"

#include <stdlib.h>
#include <rpm/rpmstring.h>

#include "signing_key.h"

size_t audit_certs_load(const char *const *paths, X509 ***certs, size_t *n)
{
	size_t failed = 0;

	for (; *paths; paths++) {
		char *err = NULL;
		X509 *cert = load_certificate(*paths, &err);

		if (!cert) {
			fprintf(stderr, "rpm-verity audit: %s\n", err);
			free(err);
			failed++;
			continue;
		}
		*certs = rrealloc(*certs, (*n + 1) * sizeof(**certs));
		(*certs)[(*n)++] = cert;
	}
	return failed;
}

void audit_certs_free(X509 **certs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		X509_free(certs[i]);
	free(certs);
}
