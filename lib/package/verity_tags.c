// SPDX-License-Identifier: MIT
/*
 * The signature header edit shared by sign and strip. The header is copied,
 * edited and reloaded into one region, as rpm itself stores it.
 */
#include "verity_tags.h"

#include <rpm/rpmtag.h>
#include <rpm/rpmtd.h>

#include "verity_format.h"

Header verity_tags_replace(Header old, char **sigs, uint32_t count,
			   uint32_t algo)
{
	Header h = headerCopy(old);
	struct rpmtd_s td;

	headerDel(h, VERITY_TAG_SIGNATURES);
	headerDel(h, VERITY_TAG_ALGO);
	if (sigs) {
		rpmtdReset(&td);
		td.tag = VERITY_TAG_SIGNATURES;
		td.type = RPM_STRING_ARRAY_TYPE;
		td.count = count;
		td.data = sigs;
		if (!headerPut(h, &td, HEADERPUT_DEFAULT))
			goto fail;
		rpmtdReset(&td);
		td.tag = VERITY_TAG_ALGO;
		td.type = RPM_INT32_TYPE;
		td.count = 1;
		td.data = &algo;
		if (!headerPut(h, &td, HEADERPUT_DEFAULT))
			goto fail;
	}
	return headerReload(h, RPMTAG_HEADERSIGNATURES);
fail:
	headerFree(h);
	return NULL;
}

int verity_tags_present(Header sigh)
{
	return headerIsEntry(sigh, VERITY_TAG_SIGNATURES) ||
	       headerIsEntry(sigh, VERITY_TAG_ALGO);
}
