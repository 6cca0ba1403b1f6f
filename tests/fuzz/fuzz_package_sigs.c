// SPDX-License-Identifier: MIT
/*
 * Fuzz target: a header blob, as rpm stores it in the rpmdb and hands it to
 * the plugin (headerImport's format: index count, data size, index, data),
 * read by the plugin's verity_package_sigs_new (plugin/package_sigs.c).
 * Checks what the plugin relies on: every entry is in a known state, and a
 * signature said to be OK is a DER PKCS#7 SignedData shape within bounds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rpm/header.h>

#include "fuzz.h"
#include "verity.h"
#include "verity_format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct verity_package_sigs *p;
	Header h;

	/* headerImport trusts the blob's own sizes when given 0. */
	if (size < 8 || size > 0x0fffffff)
		return 0;
	h = headerImport((void *)data, (unsigned int)size, HEADERIMPORT_COPY);
	if (!h)
		return 0;
	p = verity_package_sigs_new(h);
	if (!p)
		FUZZ_FAIL("verity_package_sigs_new returned NULL");
	for (size_t i = 0; p->files && i < p->nfiles; i++) {
		const struct verity_file_sig *f = &p->files[i];

		switch (f->state) {
		case VERITY_SIG_NONE:
			break;
		case VERITY_SIG_MALFORMED:
			if (!f->problem)
				FUZZ_FAIL("file %zu: malformed without a reason", i);
			break;
		case VERITY_SIG_OK:
			if (!f->der || f->der_len > VERITY_MAX_SIG_SIZE ||
			    !verity_sig_is_signed_data(f->der, f->der_len))
				FUZZ_FAIL("file %zu: OK but not a SignedData", i);
			break;
		default:
			FUZZ_FAIL("file %zu: state %d", i, (int)f->state);
		}
	}
	verity_package_sigs_free(p);
	headerFree(h);
	return 0;
}
