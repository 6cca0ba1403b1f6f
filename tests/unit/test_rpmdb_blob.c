// SPDX-License-Identifier: MIT
/*
 * Unit tests for audit/rpmdb_blob.c, the rpmdb header reader --unowned uses
 * instead of librpm: headers made by librpm itself (headerPut, then
 * headerExport, which writes the rpmdb's blob) must give the file list
 * librpm's rpmfiles gives, and every way a blob can lie must be refused
 * with a reason, before any file is passed on.
 */
#include <stdbool.h>
#include <string.h>
#include <rpm/header.h>
#include <rpm/rpmfiles.h>
#include <rpm/rpmtag.h>

#include "../lib/check.h"
#include "rpmdb_blob.h"

struct got {
	int n;
	char paths[8][64];
	uint16_t modes[8];
};

static void collect(void *ctx, const char *dir, const char *base,
		    uint16_t mode)
{
	struct got *g = ctx;

	if (g->n < 8) {
		snprintf(g->paths[g->n], sizeof(g->paths[0]), "%s%s", dir, base);
		g->modes[g->n] = mode;
	}
	g->n++;
}

static const char *bases[] = { "sh", "passwd", "bin", "tool" };
static const char *dirs[] = { "/usr/bin/", "/etc/", "/usr/" };
static const uint32_t dirindexes[] = { 0, 1, 2, 0 };
static const uint16_t modes[] = { 0100755, 0100644, 040755, 0104755 };

/* A header listing the four files above, as rpm's blob; *@len its size. */
static void *make_blob(unsigned int *len, bool with_modes)
{
	Header h = headerNew();
	void *blob;

	headerPutString(h, RPMTAG_NAME, "demo");
	headerPutStringArray(h, RPMTAG_BASENAMES, bases, 4);
	headerPutStringArray(h, RPMTAG_DIRNAMES, dirs, 3);
	headerPutUint32(h, RPMTAG_DIRINDEXES, dirindexes, 4);
	if (with_modes)
		headerPutUint16(h, RPMTAG_FILEMODES, modes, 4);
	blob = headerExport(h, len);
	headerFree(h);
	return blob;
}

/* The same list as librpm reads it from @blob. */
static void librpm_list(const void *blob, unsigned int len, struct got *g)
{
	Header h = headerImport((void *)blob, len, HEADERIMPORT_COPY);
	rpmfiles fi = h ? rpmfilesNew(NULL, h, RPMTAG_BASENAMES,
				      RPMFI_FLAGS_ONLY_FILENAMES &
				      ~RPMFI_NOFILEMODES) : NULL;

	memset(g, 0, sizeof(*g));
	for (int i = 0; fi && i < (int)rpmfilesFC(fi); i++) {
		char *fn = rpmfilesFN(fi, i);

		collect(g, "", fn, (uint16_t)rpmfilesFMode(fi, i));
		free(fn);
	}
	rpmfilesFree(fi);
	headerFree(h);
}

/* Where tag @tag's index entry lies in @blob, or NULL. */
static uint8_t *entry_of(uint8_t *blob, uint32_t tag)
{
	uint32_t il = (uint32_t)blob[0] << 24 | blob[1] << 16 | blob[2] << 8 | blob[3];

	for (uint32_t i = 0; i < il; i++) {
		uint8_t *e = blob + 8 + i * 16;

		if (((uint32_t)e[0] << 24 | e[1] << 16 | e[2] << 8 | e[3]) == tag)
			return e;
	}
	return NULL;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static void test_same_as_librpm(void)
{
	unsigned int len;
	uint8_t *blob = make_blob(&len, true);
	struct got ours = { 0 }, theirs;
	const char *why = NULL;

	CHECK(rpmdb_blob_files(blob, len, collect, &ours, &why) == 0);
	librpm_list(blob, len, &theirs);
	CHECK(ours.n == 4 && theirs.n == 4);
	for (int i = 0; i < 4 && i < ours.n; i++) {
		CHECK(!strcmp(ours.paths[i], theirs.paths[i]));
		CHECK(ours.modes[i] == theirs.modes[i]);
		CHECK(ours.modes[i] == modes[i]);
	}
	CHECK(!strcmp(ours.paths[0], "/usr/bin/sh"));
	CHECK(!strcmp(ours.paths[2], "/usr/bin"));
	free(blob);
}

static void test_no_files(void)
{
	Header h = headerNew();
	unsigned int len;
	uint8_t *blob;
	struct got g = { 0 };
	const char *why = NULL;

	headerPutString(h, RPMTAG_NAME, "gpg-pubkey");
	blob = headerExport(h, &len);
	CHECK(rpmdb_blob_files(blob, len, collect, &g, &why) == 0);
	CHECK(g.n == 0);
	free(blob);
	headerFree(h);
}

/* @blob changed by @change is refused, with no file passed on. */
static void refused(const char *what, void (*change)(uint8_t *, unsigned int *))
{
	unsigned int len;
	uint8_t *blob = make_blob(&len, true);
	struct got g = { 0 };
	const char *why = NULL;

	change(blob, &len);
	if (rpmdb_blob_files(blob, len, collect, &g, &why) != -1 || !why ||
	    g.n != 0) {
		fprintf(stderr, "not refused: %s\n", what);
		check_failures++;
	}
	check_count++;
	free(blob);
}

static void shorter(uint8_t *b, unsigned int *len) { (void)b; *len -= 1; }
static void tiny(uint8_t *b, unsigned int *len) { (void)b; *len = 7; }
static void huge_il(uint8_t *b, unsigned int *len) { (void)len; put32(b, 0x10000); }
static void names_past_end(uint8_t *b, unsigned int *len)
{
	(void)len;
	put32(entry_of(b, RPMTAG_BASENAMES) + 8, 0x0ffffff0);
}
static void more_names(uint8_t *b, unsigned int *len)
{
	(void)len;
	put32(entry_of(b, RPMTAG_BASENAMES) + 12, 1000);
}
static void dir_out_of_range(uint8_t *b, unsigned int *len)
{
	uint8_t *e = entry_of(b, RPMTAG_DIRINDEXES);
	uint32_t il = (uint32_t)b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3];
	uint32_t off = (uint32_t)e[8] << 24 | e[9] << 16 | e[10] << 8 | e[11];

	(void)len;
	put32(b + 8 + il * 16 + off + 4, 3);	/* the second file: dir 3 of 3 */
}
static void modes_wrong_type(uint8_t *b, unsigned int *len)
{
	(void)len;
	put32(entry_of(b, RPMTAG_FILEMODES) + 4, RPM_INT32_TYPE);
}
static void unterminated(uint8_t *b, unsigned int *len)
{
	/* The data's last string (export sorts by tag: the last dir name). */
	b[*len - 1] = 'x';
}
static void twice(uint8_t *b, unsigned int *len)
{
	(void)len;
	put32(entry_of(b, RPMTAG_NAME), RPMTAG_FILEMODES);
}

static void test_refused(void)
{
	unsigned int len;
	uint8_t *blob = make_blob(&len, false);
	struct got g = { 0 };
	const char *why = NULL;

	CHECK(rpmdb_blob_files(blob, len, collect, &g, &why) == -1 && why);
	free(blob);
	refused("one byte short", shorter);
	refused("shorter than a header", tiny);
	refused("too many tags", huge_il);
	refused("names past the data", names_past_end);
	refused("more names than there are", more_names);
	refused("a directory index out of range", dir_out_of_range);
	refused("modes of the wrong type", modes_wrong_type);
	refused("a string without its end", unterminated);
	refused("a file list tag twice", twice);
}

int main(void)
{
	test_same_as_librpm();
	test_no_files();
	test_refused();
	return check_report();
}
