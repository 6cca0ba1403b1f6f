// SPDX-License-Identifier: MIT
/*
 * The signature file format, version 1: the manifest's lines (manifest.c)
 * under its own first line, each digest followed by its signature, and,
 * when the signing side was given an IMA key, each signed file's IMA
 * signature on the line after:
 *
 *   rpm-verity-signatures 1
 *   package NEVRA BINDING-HEX FILE-COUNT
 *   sig INDEX ALGORITHM DIGEST-HEX BASE64-PKCS7   (or: sig INDEX none)
 *   ima INDEX IMA-HEX                             (optional, see below)
 *   ...
 *   end PACKAGE-COUNT
 *
 * The signature is the DER PKCS#7 rpm stores in tag 276, as one line of
 * base64. Carrying the digest beside it lets the build side say which
 * digest a signature was made for when it does not match the package.
 *
 * An ima line holds the security.ima value (IMA sigv3, common/ima_sig.h)
 * made over the digest of the sig line just above it, in lowercase hex as
 * rpm keeps it in tag 274. In one package either every signed file has one
 * or none has, so a dropped line is seen. The version stays 1: a reader
 * that predates ima lines refuses them (it finds a line where a sig line
 * is due) rather than misreading them, and files without them are what
 * they always were.
 */
#include "sigfile.h"

#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>

#include "ima_sig.h"

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

/* @hex is a whole IMA sigv3 value for @p's digests: NULL, or the problem. */
static const char *check_ima_value(const struct manifest_package *p,
				   const char *hex)
{
	uint8_t value[IMA_VALUE_MAX];
	size_t n = strlen(hex);
	struct ima_sig sig;
	int rc;

	if (n % 2 || n / 2 > IMA_VALUE_MAX || parse_hex(hex, value, n / 2))
		return "not lowercase hex of an IMA signature";
	rc = ima_sig_parse(value, n / 2, &sig);
	if (rc != IMA_SIG_OK)
		return ima_sig_strerror(rc);
	if (sig.hash_algo != ima_hash_algo_of_verity(p->alg->id))
		return "made for digests of another algorithm than the package's";
	return NULL;
}

static int parse_ima(const struct line_reader *r, struct manifest_package *p,
		     uint32_t index, char *const *fields, int nfields,
		     char **err)
{
	uint64_t got;
	const char *why;

	if (!fields) {
		if (!p->present[index])
			return 0;
		p->nsigned++;
		if (p->nima) {
			*err = line_error(r, "package %s: file %u: no ima line, where the files before it have one (a line was dropped)",
					  p->nevra, index);
			return -1;
		}
		return 0;
	}
	if (nfields != 2) {
		*err = line_error(r, "malformed ima line (expected \"ima INDEX IMA-SIGNATURE\")");
		return -1;
	}
	if (parse_count(fields[0], UINT32_MAX, &got) || got != index) {
		*err = line_error(r, "package %s: ima line for file %s after the sig line of file %u (it belongs to another file)",
				  p->nevra, fields[0], index);
		return -1;
	}
	if (!p->present[index]) {
		*err = line_error(r, "package %s: file %u: ima line for an entry without signature",
				  p->nevra, index);
		return -1;
	}
	if (p->nima != p->nsigned++) {
		*err = line_error(r, "package %s: file %u: ima line, where the files before it have none (a line was dropped)",
				  p->nevra, index);
		return -1;
	}
	why = check_ima_value(p, fields[1]);
	if (why) {
		*err = line_error(r, "package %s: file %u: IMA signature: %s",
				  p->nevra, index, why);
		return -1;
	}
	p->ima[index] = strdup(fields[1]);
	if (!p->ima[index]) {
		*err = line_error(r, "out of memory");
		return -1;
	}
	p->nima++;
	return 0;
}

static int write_ima(FILE *out, const struct manifest_package *p,
		     uint32_t index)
{
	if (!p->ima || !p->ima[index])
		return 0;
	return fprintf(out, "ima %u %s\n", index, p->ima[index]) < 0 ? -1 : 0;
}

const struct manifest_format sigfile_format = {
	.magic = "rpm-verity-signatures",
	.entry = "sig",
	.extra_fields = 1,
	.parse_extra = parse_sig,
	.write_extra = write_sig,
	.follow = "ima",
	.parse_follow = parse_ima,
	.write_follow = write_ima,
};
