// SPDX-License-Identifier: MIT
/*
 * Fuzz target: an rpmdb header blob as `rpm-verity audit --unowned` reads it
 * without librpm (audit/rpmdb_blob.c). The oracle is librpm: whenever both
 * the reader and headerImport with rpmfilesNew take a header, they must
 * list the same files, with the same modes, in the same order. A damaged
 * rpmdb that makes the reader crash, or hide a path librpm would not, is
 * a finding.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rpm/header.h>
#include <rpm/rpmfiles.h>
#include <rpm/rpmtag.h>

#include "fuzz.h"
#include "rpmdb_blob.h"

struct list {
	size_t n;
	char **paths;
	uint16_t *modes;
};

static void collect(void *ctx, const char *dir, const char *base,
		    uint16_t mode)
{
	struct list *l = ctx;
	size_t dl = strlen(dir), bl = strlen(base);

	l->paths = realloc(l->paths, (l->n + 1) * sizeof(*l->paths));
	l->modes = realloc(l->modes, (l->n + 1) * sizeof(*l->modes));
	if (!l->paths || !l->modes)
		FUZZ_FAIL("out of memory");
	l->paths[l->n] = malloc(dl + bl + 1);
	if (!l->paths[l->n])
		FUZZ_FAIL("out of memory");
	memcpy(l->paths[l->n], dir, dl);
	memcpy(l->paths[l->n] + dl, base, bl + 1);
	l->modes[l->n++] = mode;
}

static void compare(const struct list *l, const uint8_t *data, size_t size)
{
	Header h = headerImport((void *)data, (unsigned int)size,
				HEADERIMPORT_COPY);
	rpmfiles fi;

	if (!h)
		return;		/* librpm refuses it: nothing to compare */
	fi = rpmfilesNew(NULL, h, RPMTAG_BASENAMES,
			 RPMFI_FLAGS_ONLY_FILENAMES & ~RPMFI_NOFILEMODES);
	if (fi && rpmfilesFC(fi) != l->n)
		FUZZ_FAIL("%zu files read, librpm lists %d", l->n, rpmfilesFC(fi));
	for (size_t i = 0; fi && i < l->n; i++) {
		char *fn = rpmfilesFN(fi, (int)i);

		if (strcmp(fn, l->paths[i]))
			FUZZ_FAIL("file %zu: read %s, librpm says %s", i,
				  l->paths[i], fn);
		if ((uint16_t)rpmfilesFMode(fi, (int)i) != l->modes[i])
			FUZZ_FAIL("file %zu: mode %o read, librpm says %o", i,
				  l->modes[i], rpmfilesFMode(fi, (int)i));
		free(fn);
	}
	rpmfilesFree(fi);
	headerFree(h);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct list l = { 0 };
	const char *why = NULL;

	if (rpmdb_blob_files(data, size, collect, &l, &why) == 0) {
		if (size <= 0x0fffffff)
			compare(&l, data, size);
	} else if (!why) {
		FUZZ_FAIL("refused without a reason");
	} else if (l.n) {
		FUZZ_FAIL("refused after passing %zu files on", l.n);
	}
	for (size_t i = 0; i < l.n; i++)
		free(l.paths[i]);
	free(l.paths);
	free(l.modes);
	return 0;
}
