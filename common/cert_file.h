/* SPDX-License-Identifier: MIT */
/*
 * Reading a certificate file: every certificate of a PEM file (a bundle
 * during a key rotation holds the old and the new one), or the one
 * certificate of a DER file. The audit, the enforcer and the plugin's own
 * signature checks read certificates through this.
 */
#ifndef RPMVERITY_COMMON_CERT_FILE_H
#define RPMVERITY_COMMON_CERT_FILE_H

#include <stddef.h>
#include <openssl/x509.h>

/*
 * Appends the certificates of @path to *@certs (*@n of them, realloc'ed).
 * Returns how many it added, or 0 with the reason (naming the file) in
 * @why, @size bytes, when the file cannot be read or holds none.
 */
size_t cert_file_read(const char *path, X509 ***certs, size_t *n, char *why,
		      size_t size);

#endif
