// SPDX-License-Identifier: MIT
/*
 * The signature file format, version 1: the manifest's lines (manifest.c)
 * under its own first line, each digest followed by its signature:
 *
 *   rpm-verity-signatures 1
 *   package NEVRA BINDING-HEX FILE-COUNT
 *   sig INDEX ALGORITHM DIGEST-HEX BASE64-PKCS7   (or: sig INDEX none)
 *   ...
 *   end PACKAGE-COUNT
 *
 * The signature is the DER PKCS#7 rpm stores in tag 276, as one line of
 * base64. Carrying the digest beside it lets the build side say which
 * digest a signature was made for when it does not match the package.
 */
#include "sigfile.h"

#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>

static int b64_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9') || c == '+' || c == '/';
}

uint8_t *sigfile_decode(const char *b64, size_t *len)
{
	size_t n = strlen(b64), pad = 0;
	uint8_t *der;
	int out;

	if (n == 0 || n % 4 || n > (VERITY_MAX_SIG_SIZE + 2) / 3 * 4)
		return NULL;
	if (b64[n - 1] == '=')
		pad = b64[n - 2] == '=' ? 2 : 1;
	for (size_t i = 0; i < n - pad; i++)
		if (!b64_char(b64[i]))
			return NULL;
	der = malloc(n / 4 * 3 + 1);
	if (!der)
		return NULL;
	out = EVP_DecodeBlock(der, (const unsigned char *)b64, (int)n);
	if (out < 0 || (size_t)out < pad || (size_t)out - pad == 0 ||
	    (size_t)out - pad > VERITY_MAX_SIG_SIZE) {
		free(der);
		return NULL;
	}
	*len = (size_t)out - pad;
	return der;
}

char *sigfile_encode(const uint8_t *der, size_t len)
{
	char *b64 = malloc((len + 2) / 3 * 4 + 1);

	if (b64)
		EVP_EncodeBlock((unsigned char *)b64, der, (int)len);
	return b64;
}

static int parse_sig(const struct line_reader *r, struct manifest_package *p,
		     uint32_t index, char *const *fields, char **err)
{
	size_t len = 0;
	uint8_t *der = sigfile_decode(fields[0], &len);

	if (!der) {
		*err = line_error(r, "package %s: file %u: signature is not base64 of 1 to %d bytes",
				  p->nevra, index, VERITY_MAX_SIG_SIZE);
		return -1;
	}
	if (verity_sig_length(der, len) != (ssize_t)len) {
		free(der);
		*err = line_error(r, "package %s: file %u: signature is not one DER structure",
				  p->nevra, index);
		return -1;
	}
	free(der);
	p->sigs[index] = strdup(fields[0]);
	if (!p->sigs[index]) {
		*err = line_error(r, "out of memory");
		return -1;
	}
	return 0;
}

static int write_sig(FILE *out, const struct manifest_package *p,
		     uint32_t index)
{
	return fprintf(out, " %s", p->sigs[index]) < 0 ? -1 : 0;
}

const struct manifest_format sigfile_format = {
	.magic = "rpm-verity-signatures",
	.entry = "sig",
	.extra_fields = 1,
	.parse_extra = parse_sig,
	.write_extra = write_sig,
};
