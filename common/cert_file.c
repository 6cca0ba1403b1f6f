// SPDX-License-Identifier: MIT
/* Every certificate of a PEM or DER file (cert_file.h). */
#include "cert_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/err.h>
#include <openssl/pem.h>

static void append(X509 ***certs, size_t *n, X509 *x)
{
	X509 **grown = realloc(*certs, (*n + 1) * sizeof(*grown));

	if (!grown)
		abort();	/* out of memory: as rpm's allocators do */
	*certs = grown;
	(*certs)[(*n)++] = x;
}

size_t cert_file_read(const char *path, X509 ***certs, size_t *n, char *why,
		      size_t size)
{
	BIO *bio = BIO_new_file(path, "rb");
	size_t before = *n;
	X509 *x;

	if (!bio) {
		snprintf(why, size, "%s: cannot read certificate: %s", path,
			 strerror(errno ? errno : EIO));
		ERR_clear_error();
		return 0;
	}
	while ((x = PEM_read_bio_X509(bio, NULL, NULL, NULL)))
		append(certs, n, x);
	if (*n == before) {
		(void)BIO_reset(bio);
		if ((x = d2i_X509_bio(bio, NULL)))
			append(certs, n, x);
	}
	BIO_free(bio);
	ERR_clear_error();
	if (*n == before)
		snprintf(why, size, "%s: not a PEM or DER X.509 certificate", path);
	return *n - before;
}
