// SPDX-License-Identifier: MIT
/*
 * Test helper: writes the fs-verity signature tags of a package's signature
 * header from a text file, so the plugin tests can make signed packages
 * without the signer and can craft broken entries (bad base64, truncated
 * DER, wrong algorithm, wrong count) that no signer would produce.
 *
 * verity-tag-edit IN OUT [--sigs FILE] [--algo N] [--no-algo] [--no-sigs]
 *                         [--ima FILE]
 *   FILE: one base64 entry per line, in header file order; an empty line is
 *   an empty entry. Everything but the signature header is copied as is.
 *   --ima: IMA file signatures (tag 274, one hex entry per line), which rpm
 *   installs as tag 5090, for the audit tests.
 *                         [--put TAG TYPE COUNT]
 *   --put: tag TAG (274-277) replaced by one of rpm type TYPE (CHAR, INT8,
 *   INT16, INT32, INT64, STRING, BIN, STRING_ARRAY, I18NSTRING) with COUNT
 *   values: numbers are the tag's first value (or 1), strings its entries
 *   in turn (or "1"). Exits 3 when rpm will not store or import that shape,
 *   for tests/signer/tag_types.sh's table. --seed FILE also writes the new
 *   signature header as a fuzz_package_sigs input (a 0 byte, the header).
 * verity-tag-edit IN --dump
 *   prints the entries in that format (whitespace inside entries removed).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rpm/header.h>
#include <rpm/rpmtag.h>
#include <rpm/rpmtd.h>

#include "verity_format.h"

#define LEAD_SIZE 96
#define SIGTAG_IMA_SIGNATURES 274	/* RPMSIGTAG_FILESIGNATURES */

static const unsigned char header_magic[8] = {
	0x8e, 0xad, 0xe8, 0x01, 0, 0, 0, 0
};

static _Noreturn void die(const char *what, const char *file)
{
	fprintf(stderr, "verity-tag-edit: %s: %s\n", file, what);
	exit(1);
}

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;
	long n = -1;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET))
		die(strerror(errno), path);
	buf = malloc((size_t)n + 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n)
		die("cannot read", path);
	fclose(f);
	buf[n] = 0;
	*len = (size_t)n;
	return buf;
}

/* Lines of a text file; an empty line stays an empty string. */
static char **read_lines(const char *path, int *count, char **text_out)
{
	size_t len;
	char *text = (char *)slurp(path, &len), *p = text;
	char **lines = NULL;
	int n = 0;

	while (*p) {
		char *nl = strchr(p, '\n');

		lines = realloc(lines, (size_t)(n + 1) * sizeof(*lines));
		if (!lines)
			die("out of memory", path);
		if (nl)
			*nl = '\0';
		lines[n++] = p;
		p = nl ? nl + 1 : p + strlen(p);
	}
	*count = n;
	*text_out = text;
	return lines;
}

/* The signature header of a package image, and where the rest starts. */
static Header read_sig_header(const unsigned char *pkg, size_t len,
			      const char *in, size_t *rest)
{
	size_t off = LEAD_SIZE, sig_size;
	unsigned int il, dl;
	Header h;

	if (len < off + 16 || memcmp(pkg + off, header_magic, 3))
		die("no signature header after the lead", in);
	memcpy(&il, pkg + off + 8, 4);
	memcpy(&dl, pkg + off + 12, 4);
	sig_size = 16 + 16 * (size_t)ntohl(il) + ntohl(dl);
	if (off + sig_size > len)
		die("truncated signature header", in);
	h = headerImport((void *)(pkg + off + 8), sig_size - 8,
			 HEADERIMPORT_COPY);
	if (!h)
		die("cannot parse the signature header", in);
	*rest = off + sig_size + (8 - sig_size % 8) % 8;
	return h;
}

/*
 * A new header with every tag of old except its region and, if asked, the
 * verity tags: editing an imported header in place leaves the new tags
 * outside its region, which rpm reads but cannot reload.
 */
static Header fresh_copy(Header old, int drop_sigs, int drop_algo,
			 rpmTagVal drop)
{
	Header h = headerNew();
	HeaderIterator hi = headerInitIterator(old);
	struct rpmtd_s td;

	while (headerNext(hi, &td)) {
		if (!(td.tag == RPMTAG_HEADERSIGNATURES ||
		      (drop_sigs && td.tag == VERITY_TAG_SIGNATURES) ||
		      (drop_algo && td.tag == VERITY_TAG_ALGO) ||
		      td.tag == drop))
			headerPut(h, &td, HEADERPUT_DEFAULT);
		rpmtdFreeData(&td);
	}
	headerFreeIterator(hi);
	headerFree(old);
	return h;
}

static const struct {
	const char *name;
	rpmTagType type;
	size_t size;		/* of one value; 0: strings */
} types[] = {
	{ "CHAR", RPM_CHAR_TYPE, 1 }, { "INT8", RPM_INT8_TYPE, 1 },
	{ "INT16", RPM_INT16_TYPE, 2 }, { "INT32", RPM_INT32_TYPE, 4 },
	{ "INT64", RPM_INT64_TYPE, 8 }, { "STRING", RPM_STRING_TYPE, 0 },
	{ "BIN", RPM_BIN_TYPE, 1 }, { "STRING_ARRAY", RPM_STRING_ARRAY_TYPE, 0 },
	{ "I18NSTRING", RPM_I18NSTRING_TYPE, 0 },
};

/* What --put stores: made from the tag as it was in @old, if it was. */
struct put {
	rpmTagVal tag;
	int type;		/* index in types[] */
	rpm_count_t count;
	char **strings;		/* the old entries, when strings */
	rpm_count_t nstrings;
	uint64_t number;	/* the old first number, or 1 */
};

static void put_free(struct put *p)
{
	for (rpm_count_t i = 0; i < p->nstrings; i++)
		free(p->strings[i]);
	free(p->strings);
}

static void put_remember(Header old, struct put *p)
{
	struct rpmtd_s td;
	const char *s;

	p->number = 1;
	if (!headerGet(old, p->tag, &td, HEADERGET_MINMEM))
		return;
	if (rpmtdType(&td) == RPM_STRING_ARRAY_TYPE) {
		p->strings = calloc(rpmtdCount(&td) + 1, sizeof(char *));
		while (p->strings && (s = rpmtdNextString(&td)))
			p->strings[p->nstrings++] = strdup(s);
	} else if (rpmtdType(&td) == RPM_INT32_TYPE) {
		p->number = *rpmtdGetUint32(&td);
	}
	rpmtdFreeData(&td);
}

/* Store the shape --put asked for; false if rpm will not. */
static int put_store(Header h, const struct put *p)
{
	size_t size = types[p->type].size, n = p->count ? p->count : 1;
	struct rpmtd_s td;
	void *data;
	int ok;

	rpmtdReset(&td);
	td.tag = p->tag;
	td.type = types[p->type].type;
	td.count = p->count;
	if (size) {
		uint8_t *v = calloc(n, size);

		for (size_t i = 0; v && i < n; i++) {
			uint64_t x = p->number;

			/* rpm keeps numbers in host order in memory */
			if (size == 1) v[i] = (uint8_t)x;
			else if (size == 2) ((uint16_t *)v)[i] = (uint16_t)x;
			else if (size == 4) ((uint32_t *)v)[i] = (uint32_t)x;
			else ((uint64_t *)v)[i] = x;
		}
		data = v;
	} else {
		char **v = calloc(n, sizeof(*v));

		for (size_t i = 0; v && i < n; i++)
			v[i] = p->nstrings ? p->strings[i % p->nstrings] :
					     (char *)"1";
		data = td.type == RPM_STRING_TYPE && v ? (void *)v[0] :
							 (void *)v;
		if (td.type == RPM_STRING_TYPE) {
			td.data = data;
			ok = headerPut(h, &td, HEADERPUT_DEFAULT);
			free(v);
			return ok;
		}
	}
	if (!data)
		die("out of memory", "--put");
	td.data = data;
	ok = headerPut(h, &td, HEADERPUT_DEFAULT);
	free(data);
	return ok;
}

static int dump(const unsigned char *pkg, size_t len, const char *in)
{
	size_t rest;
	Header h = read_sig_header(pkg, len, in, &rest);
	struct rpmtd_s td;
	const char *s;

	if (headerGet(h, VERITY_TAG_SIGNATURES, &td, HEADERGET_MINMEM)) {
		while ((s = rpmtdNextString(&td)) != NULL) {
			for (; *s; s++)
				if (*s > ' ')
					putchar(*s);
			putchar('\n');
		}
		rpmtdFreeData(&td);
	}
	headerFree(h);
	return 0;
}

/* The lines of @path as string array @tag of @h (nothing if empty). */
static void put_lines(Header h, rpmTagVal tag, const char *path,
		      const char *what)
{
	struct rpmtd_s td;
	int n;
	char *text;
	char **lines = read_lines(path, &n, &text);

	rpmtdReset(&td);
	td.tag = tag;
	td.type = RPM_STRING_ARRAY_TYPE;
	td.data = lines;
	td.count = (rpm_count_t)n;
	if (n > 0 && !headerPut(h, &td, HEADERPUT_DEFAULT))
		die(what, path);
	free(lines);
	free(text);
}

int main(int argc, char **argv)
{
	const char *sigs = NULL, *ima = NULL, *in, *out;
	long algo = -1;
	int no_algo = 0, no_sigs = 0;
	struct put put = { .type = -1 };
	const char *seed = NULL;
	size_t len, off;
	unsigned char *pkg;
	Header h;
	FILE *f;

	if (argc < 3) {
		fprintf(stderr, "usage: verity-tag-edit IN OUT [--sigs FILE] "
			"[--algo N] [--no-algo] [--no-sigs]\n");
		return 2;
	}
	in = argv[1];
	out = argv[2];
	for (int i = 3; i < argc; i++) {
		if (!strcmp(argv[i], "--sigs") && i + 1 < argc)
			sigs = argv[++i];
		else if (!strcmp(argv[i], "--algo") && i + 1 < argc)
			algo = strtol(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--no-algo"))
			no_algo = 1;
		else if (!strcmp(argv[i], "--ima") && i + 1 < argc)
			ima = argv[++i];
		else if (!strcmp(argv[i], "--no-sigs"))
			no_sigs = 1;
		else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			seed = argv[++i];
		else if (!strcmp(argv[i], "--put") && i + 3 < argc) {
			put.tag = (rpmTagVal)strtol(argv[++i], NULL, 0);
			i++;
			for (size_t t = 0; t < sizeof(types) / sizeof(*types); t++)
				if (!strcmp(argv[i], types[t].name))
					put.type = (int)t;
			if (put.type < 0)
				die("unknown type", argv[i]);
			put.count = (rpm_count_t)strtoul(argv[++i], NULL, 0);
		}
		else
			die("unknown option", argv[i]);
	}

	pkg = slurp(in, &len);
	if (!strcmp(out, "--dump")) {
		int rc = dump(pkg, len, in);

		free(pkg);
		return rc;
	}
	h = read_sig_header(pkg, len, in, &off);
	if (put.tag)
		put_remember(h, &put);
	h = fresh_copy(h, sigs || no_sigs, algo >= 0 || no_algo, put.tag);
	if (put.tag && !put_store(h, &put)) {
		headerFree(h);
		free(pkg);
		fprintf(stderr, "verity-tag-edit: rpm will not store tag %u as "
			"%s x%u\n", (unsigned)put.tag, types[put.type].name,
			(unsigned)put.count);
		put_free(&put);
		return 3;
	}
	if (sigs)
		put_lines(h, VERITY_TAG_SIGNATURES, sigs, "cannot store signatures");
	if (ima)
		put_lines(h, SIGTAG_IMA_SIGNATURES, ima,
			  "cannot store IMA signatures");
	if (algo >= 0) {
		uint32_t v = (uint32_t)algo;

		if (!headerPutUint32(h, VERITY_TAG_ALGO, &v, 1))
			die("cannot store the algorithm", in);
	}
	/* Give the new header its region, as rpm's own signature headers have. */
	h = headerReload(h, RPMTAG_HEADERSIGNATURES);
	if (!h && put.tag) {
		free(pkg);
		fprintf(stderr, "verity-tag-edit: rpm will not import tag %u "
			"as %s x%u\n", (unsigned)put.tag, types[put.type].name,
			(unsigned)put.count);
		put_free(&put);
		return 3;
	}
	if (!h)
		die("cannot rebuild the signature header", in);
	f = fopen(out, "wb");
	if (!f)
		die(strerror(errno), out);
	{
		unsigned int blob_len;
		void *blob = headerExport(h, &blob_len);
		size_t total = 8 + blob_len;
		static const unsigned char zeros[8];

		if (seed && blob) {
			FILE *sf = fopen(seed, "wb");

			if (!sf || fputc(0, sf) == EOF ||
			    fwrite(blob, 1, blob_len, sf) != blob_len ||
			    fclose(sf) != 0)
				die("cannot write", seed);
		}
		if (!blob || fwrite(pkg, 1, LEAD_SIZE, f) != LEAD_SIZE ||
		    fwrite(header_magic, 1, 8, f) != 8 ||
		    fwrite(blob, 1, blob_len, f) != blob_len ||
		    fwrite(zeros, 1, (8 - total % 8) % 8, f) !=
			    (8 - total % 8) % 8 ||
		    fwrite(pkg + off, 1, len - off, f) != len - off ||
		    fclose(f) != 0)
			die("cannot write", out);
		free(blob);
	}
	headerFree(h);
	free(pkg);
	put_free(&put);
	return 0;
}
