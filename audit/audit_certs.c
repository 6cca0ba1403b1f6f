// SPDX-License-Identifier: MIT
/*
 * The certificates an audit trusts, loaded from their files. The audit of
 * packages loads them before it starts, --unowned only once a signed file
 * turns up at a path no package owns; both report every file that does not
 * load, so a user fixes them all at once. A PEM bundle gives every
 * certificate it holds.
 */
#include "audit.h"
#include "cert_file.h"

#include <stdlib.h>

size_t audit_certs_load(const char *const *paths, X509 ***certs, size_t *n)
{
	size_t failed = 0;
	char why[512];

	for (; *paths; paths++)
		if (!cert_file_read(*paths, certs, n, why, sizeof(why))) {
			fprintf(stderr, "rpm-verity audit: %s\n", why);
			failed++;
		}
	return failed;
}

void audit_certs_free(X509 **certs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		X509_free(certs[i]);
	free(certs);
}
