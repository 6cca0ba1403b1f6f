// SPDX-License-Identifier: MIT
/*
 * Reads a package's fs-verity signatures straight from its header. librpm's
 * own decoder (behind rpmfiVSignature) drops every signature of a package
 * when one entry is bad base64 and says so only at debug level, so the plugin
 * decodes the tag itself and can name the file whose entry is broken.
 */
#include "verity.h"
#include "verity_format.h"

#include <stdlib.h>
#include <string.h>

#include <rpm/rpmbase64.h>
#include <rpm/rpmtag.h>
#include <rpm/rpmtd.h>

/* Fill in one file's entry from its base64 text. */
static void decode_entry(const char *b64, struct verity_file_sig *f)
{
	void *raw = NULL;
	size_t raw_len = 0;
	ssize_t der_len;

	if (*b64 == '\0') {
		f->state = VERITY_SIG_NONE;
		return;
	}
	if (rpmBase64Decode(b64, &raw, &raw_len) != 0) {
		free(raw);
		f->state = VERITY_SIG_MALFORMED;
		f->problem = "malformed signature: not valid base64";
		return;
	}
	der_len = verity_sig_length(raw, raw_len);
	if (der_len == 0) {
		free(raw);
		f->state = VERITY_SIG_NONE;
		return;
	}
	f->state = VERITY_SIG_MALFORMED;
	if (der_len < 0) {
		f->problem = raw_len > VERITY_MAX_SIG_SIZE ?
			"malformed signature: larger than the kernel accepts" :
			"malformed signature: truncated or not DER";
	} else {
		bool tail_zero = true;

		for (size_t i = (size_t)der_len; i < raw_len; i++)
			tail_zero &= ((uint8_t *)raw)[i] == 0;
		if (!tail_zero)
			f->problem = "malformed signature: bytes after its end";
		else if (!verity_sig_is_signed_data(raw, (size_t)der_len))
			f->problem = "malformed signature: not a PKCS#7 signature";
		else
			f->state = VERITY_SIG_OK;
	}
	if (f->state == VERITY_SIG_OK) {
		f->der = raw;
		f->der_len = (size_t)der_len;
	} else {
		free(raw);
	}
}

static void read_algorithm(Header h, struct verity_package_sigs *p)
{
	struct rpmtd_s td;

	/* rpm itself treats a missing algorithm tag as SHA-256. */
	p->algo = 1;
	if (!headerGet(h, VERITY_TAG_ALGO, &td, HEADERGET_MINMEM))
		return;
	if (rpmtdType(&td) != RPM_INT32_TYPE || rpmtdCount(&td) != 1) {
		p->algo_problem = "the signature algorithm tag is malformed";
	} else {
		p->algo = *rpmtdGetUint32(&td);
		if (verity_hash_alg_by_id(p->algo) == NULL)
			p->algo_problem = "unknown fs-verity hash algorithm";
	}
	rpmtdFreeData(&td);
}

struct verity_package_sigs *verity_package_sigs_new(Header h)
{
	struct verity_package_sigs *p = calloc(1, sizeof(*p));
	struct rpmtd_s td;
	const char *s;
	size_t i = 0;

	if (p == NULL)
		return NULL;
	p->nevra = headerGetAsString(h, RPMTAG_NEVRA);
	if (headerGet(h, RPMTAG_BASENAMES, &td, HEADERGET_MINMEM)) {
		p->nfiles = rpmtdCount(&td);
		rpmtdFreeData(&td);
	}
	p->files = calloc(p->nfiles ? p->nfiles : 1, sizeof(*p->files));
	if (p->files == NULL) {
		verity_package_sigs_free(p);
		return NULL;
	}
	read_algorithm(h, p);

	if (!headerGet(h, VERITY_TAG_SIGNATURES, &td, HEADERGET_MINMEM))
		return p;
	p->has_tag = true;
	if (rpmtdType(&td) != RPM_STRING_ARRAY_TYPE ||
	    rpmtdCount(&td) != p->nfiles) {
		p->count_problem = "the package has a different number of "
				   "fs-verity signatures than files";
		rpmtdFreeData(&td);
		return p;
	}
	while ((s = rpmtdNextString(&td)) != NULL && i < p->nfiles)
		decode_entry(s, &p->files[i++]);
	rpmtdFreeData(&td);
	return p;
}

void verity_package_sigs_free(struct verity_package_sigs *p)
{
	if (p == NULL)
		return;
	for (size_t i = 0; p->files && i < p->nfiles; i++)
		free(p->files[i].der);
	free(p->files);
	free(p->nevra);
	free(p);
}
