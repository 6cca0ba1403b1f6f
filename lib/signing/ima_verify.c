// SPDX-License-Identifier: MIT
/*
 * The IMA half of `rpm-verity verify`: with the fs-verity digests the
 * verity pass computed, each file's security.ima value is checked the way
 * the kernel will check it at exec time (ima_sigs.c), offline. The entries
 * come decoded (package_sigs.h); only tag 275's value is read here, since
 * rpm older than 4.18 reads every entry at that length.
 */
#include "ima_verify.h"

#include <stdlib.h>
#include <rpm/rpmstring.h>
#include <rpm/rpmtd.h>

#include "file_rule.h"
#include "ima_sig.h"
#include "ima_sigs.h"

/* NULL if @f is the right entry for a file, else the problem. */
static char *check_entry(const struct file_sig *f, bool signable,
			 const uint8_t *digest, X509 *cert, uint32_t keyid,
			 const struct verity_hash_alg *alg)
{
	char *why = NULL;

	if (!signable)
		return f->state != FILE_SIG_NONE ?
			rstrdup("IMA signature on a file that gets no fs-verity signature") :
			NULL;
	if (f->state == FILE_SIG_NONE)
		return rstrdup("no IMA signature");
	if (f->state == FILE_SIG_MALFORMED)
		return rstrdup(f->problem);
	if (!digest)
		return rstrdup("no fs-verity digest to check the IMA signature against");
	if (ima_verify_value(cert, keyid, alg, digest, f->bytes, f->len,
			     &why) == 0)
		return NULL;
	return why;
}

/* Tag 275, or 0 without one (its type was checked by the decoder). */
static uint32_t length_tag(Header sigh)
{
	struct rpmtd_s td;
	uint32_t n = 0;

	if (headerGet(sigh, IMA_TAG_SIGLENGTH, &td, HEADERGET_MINMEM)) {
		if (rpmtdType(&td) == RPM_INT32_TYPE && rpmtdCount(&td) >= 1)
			n = *rpmtdGetUint32(&td);
		rpmtdFreeData(&td);
	}
	return n;
}

int ima_verify_package(const struct package *pkg, rpmfiles files,
		       const struct sig_table *ima, X509 *cert,
		       uint32_t keyid, const struct manifest_package *digests,
		       ima_problem_fn problem, void *ctx)
{
	int count = rpmfilesFC(files), bad = 0;
	size_t longest = 0;
	char *why;

	if (!ima->present || ima->problem) {
		why = rstrdup(ima->present ? ima->problem :
			      "no IMA signatures");
		return problem(ctx, -1, why) ? -1 : 1;
	}
	for (int i = 0; i < count; i++) {
		const struct file_sig *f = &ima->files[i];
		const uint8_t *d = digests->present[i] ?
			manifest_digest(digests, (uint32_t)i) : NULL;

		if (f->state == FILE_SIG_OK && f->len > longest)
			longest = f->len;
		why = check_entry(f, verity_files_signed(files, i), d, cert,
				  keyid, digests->alg);
		if (!why)
			continue;
		if (problem(ctx, i, why))
			return -1;
		bad++;
	}
	if (length_tag(pkg->sigh) < longest) {
		rasprintf(&why, "IMA signature length tag (275) missing or shorter than the longest signature (%zu bytes)",
			  longest);
		if (problem(ctx, -1, why))
			return -1;
		bad++;
	}
	return bad;
}
