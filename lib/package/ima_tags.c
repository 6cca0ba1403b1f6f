// SPDX-License-Identifier: MIT
/*
 * The IMA file signature tags in the signature header, as rpmsign
 * --signfiles writes them: 274 one hex string per header file (empty for
 * files without a signature), 275 the longest value in bytes. rpm 4.18
 * reads each entry at its own length, so ECDSA values may differ in size.
 */
#include "ima_tags.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rpm/rpmstring.h>
#include <rpm/rpmtag.h>
#include <rpm/rpmtd.h>

#include "ima_sig.h"

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

int ima_tags_have_verity_sigs(Header sigh)
{
	struct rpmtd_s td;
	const char *s;
	int found = 0;

	if (!headerGet(sigh, IMA_TAG_SIGNATURES, &td, HEADERGET_MINMEM))
		return 0;
	while (!found && (s = rpmtdNextString(&td)))
		found = s[0] == '0' && s[1] == '6';	/* IMA_VERITY_DIGSIG */
	rpmtdFreeData(&td);
	return found;
}

int ima_tags_store(struct package *pkg, const struct ima_sigs *ima,
		   char **err)
{
	Header h;

	if (!ima && !ima_tags_have_verity_sigs(pkg->sigh))
		return 0;
	h = ima_tags_replace(pkg->sigh, ima);
	if (!h) {
		rasprintf(err, "%s: cannot build the signature header", pkg->path);
		return -1;
	}
	if (!ima)
		printf("%s: dropping the IMA signatures of the previous signing (give --ima-key and --ima-cert to make new ones)\n",
		       pkg->path);
	headerFree(pkg->sigh);
	pkg->sigh = h;
	return 0;
}
