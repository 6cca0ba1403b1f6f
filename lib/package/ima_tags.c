// SPDX-License-Identifier: MIT
/*
 * The IMA file signature tags in the signature header, as rpmsign
 * --signfiles writes them: 274 one hex string per header file (empty for
 * files without a signature), 275 the longest value in bytes. rpm 4.18
 * reads each entry at its own length, so ECDSA values may differ in size.
 * What is in them is read through the common decoder (package_sigs.h).
 */
#include "ima_tags.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rpm/rpmstring.h>
#include <rpm/rpmtag.h>
#include <rpm/rpmtd.h>

#include "ima_sig.h"
#include "package_sigs.h"

static int put_entries(Header h, const struct ima_sigs *ima)
{
	const char **entries = calloc(ima->count ? ima->count : 1,
				      sizeof(*entries));
	uint32_t longest = 0;
	struct rpmtd_s td;
	int ok;

	if (!entries)
		return 0;
	for (uint32_t i = 0; i < ima->count; i++) {
		size_t n = ima->hex[i] ? strlen(ima->hex[i]) / 2 : 0;

		entries[i] = ima->hex[i] ? ima->hex[i] : "";
		if (n > longest)
			longest = (uint32_t)n;
	}
	rpmtdReset(&td);
	td.tag = IMA_TAG_SIGNATURES;
	td.type = RPM_STRING_ARRAY_TYPE;
	td.count = ima->count;
	td.data = entries;
	ok = headerPut(h, &td, HEADERPUT_DEFAULT);
	if (ok) {
		rpmtdReset(&td);
		td.tag = IMA_TAG_SIGLENGTH;
		td.type = RPM_INT32_TYPE;
		td.count = 1;
		td.data = &longest;
		ok = headerPut(h, &td, HEADERPUT_DEFAULT);
	}
	free(entries);
	return ok;
}

Header ima_tags_replace(Header sigh, const struct ima_sigs *ima)
{
	Header h = headerCopy(sigh);

	headerDel(h, IMA_TAG_SIGNATURES);
	headerDel(h, IMA_TAG_SIGLENGTH);
	if (ima && ima->count && !put_entries(h, ima)) {
		headerFree(h);
		return NULL;
	}
	return headerReload(h, RPMTAG_HEADERSIGNATURES);
}

int ima_tags_present(Header sigh)
{
	return headerIsEntry(sigh, IMA_TAG_SIGNATURES) ||
	       headerIsEntry(sigh, IMA_TAG_SIGLENGTH);
}

const char *ima_tags_stale(const struct package *pkg)
{
	static const char previous[] = "the IMA signatures of the previous "
		"signing (give --ima-key and --ima-cert to make new ones)";
	const char *why = NULL;
	struct package_sigs *ps;

	if (!ima_tags_present(pkg->sigh))
		return NULL;
	ps = package_sigs_decode(pkg->sigh, PACKAGE_SIGS_SIGHEADER,
				 package_sigs_file_count(pkg->h));
	if (!ps)
		return "the IMA signatures (out of memory reading them)";
	if (ps->ima.problem)
		why = "the IMA signature tags, which are malformed";
	for (size_t i = 0; !why && ps->ima.files && i < ps->nfiles; i++) {
		const struct file_sig *f = &ps->ima.files[i];

		if (f->state == FILE_SIG_MALFORMED)
			why = "the IMA signatures, one of which is malformed";
		else if (f->state == FILE_SIG_OK &&
			 f->bytes[0] == IMA_VERITY_DIGSIG)
			why = previous;
	}
	package_sigs_free(ps);
	return why;
}

int ima_tags_store(struct package *pkg, const struct ima_sigs *ima,
		   char **err)
{
	const char *stale = ima ? NULL : ima_tags_stale(pkg);
	Header h;

	if (!ima && !stale)
		return 0;
	h = ima_tags_replace(pkg->sigh, ima);
	if (!h) {
		rasprintf(err, "%s: cannot build the signature header", pkg->path);
		return -1;
	}
	if (!ima)
		printf("%s: dropping %s\n", pkg->path, stale);
	headerFree(pkg->sigh);
	pkg->sigh = h;
	return 0;
}
