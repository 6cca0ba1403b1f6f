// SPDX-License-Identifier: MIT
/*
 * Fuzz target: the one decoder of a package's signature tags
 * (common/package_sigs.c), which the plugin, the audit, strip, inject and
 * verify read the tags through. Input: one byte, then a header blob in
 * headerImport's format (as in a package's signature header or the rpmdb).
 * The byte is the file count the caller would pass, less one; 0 takes the
 * blob's own count (its BASENAMES), as the plugin and the audit do. The
 * blob is decoded both as a signature header (274-277) and as an installed
 * one (276/277, 5090/5091). Checks what every caller relies on: a table is
 * usable or has a reason, every entry is in a known state, an OK entry has
 * bytes (a bounded SignedData for fs-verity) and a malformed one a reason.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rpm/header.h>

#include "fuzz.h"
#include "package_sigs.h"
#include "verity_format.h"

static void check_table(const struct sig_table *t, size_t nfiles,
			bool verity, const char *what)
{
	if (t->problem && t->files)
		FUZZ_FAIL("%s: entries despite \"%s\"", what, t->problem);
	if (t->present && !t->problem && !t->files)
		FUZZ_FAIL("%s: present, no problem and no entries", what);
	for (size_t i = 0; t->files && i < nfiles; i++) {
		const struct file_sig *f = &t->files[i];

		switch (f->state) {
		case FILE_SIG_NONE:
			if (f->bytes)
				FUZZ_FAIL("%s file %zu: none with bytes", what, i);
			break;
		case FILE_SIG_MALFORMED:
			if (!f->problem || f->bytes)
				FUZZ_FAIL("%s file %zu: malformed without a "
					  "reason, or with bytes", what, i);
			break;
		case FILE_SIG_OK:
			if (!f->bytes || f->len == 0)
				FUZZ_FAIL("%s file %zu: OK without bytes", what, i);
			if (verity && (f->len > VERITY_MAX_SIG_SIZE ||
			    !verity_sig_is_signed_data(f->bytes, f->len)))
				FUZZ_FAIL("%s file %zu: OK but not a SignedData",
					  what, i);
			break;
		default:
			FUZZ_FAIL("%s file %zu: state %d", what, i, (int)f->state);
		}
	}
}

static void decode(Header h, enum package_sigs_header where, size_t nfiles)
{
	struct package_sigs *ps = package_sigs_decode(h, where, nfiles);

	if (!ps)
		FUZZ_FAIL("package_sigs_decode returned NULL");
	if (ps->nfiles != nfiles)
		FUZZ_FAIL("%zu files, asked for %zu", ps->nfiles, nfiles);
	if (!ps->verity.problem && !ps->alg)
		FUZZ_FAIL("fs-verity usable without an algorithm");
	check_table(&ps->verity, nfiles, true, "fs-verity");
	check_table(&ps->ima, nfiles, false, "IMA");
	package_sigs_free(ps);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t nfiles;
	Header h;

	/* headerImport trusts the blob's own sizes when given 0. */
	if (size < 9 || size > 0x0fffffff)
		return 0;
	h = headerImport((void *)(data + 1), (unsigned int)(size - 1),
			 HEADERIMPORT_COPY);
	if (!h)
		return 0;
	nfiles = data[0] ? (size_t)data[0] - 1 : package_sigs_file_count(h);
	decode(h, PACKAGE_SIGS_SIGHEADER, nfiles);
	decode(h, PACKAGE_SIGS_INSTALLED, nfiles);
	headerFree(h);
	return 0;
}
