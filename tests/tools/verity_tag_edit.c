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
static Header fresh_copy(Header old, int drop_sigs, int drop_algo)
{
	Header h = headerNew();
	HeaderIterator hi = headerInitIterator(old);
	struct rpmtd_s td;

	while (headerNext(hi, &td)) {
		if (!(td.tag == RPMTAG_HEADERSIGNATURES ||
		      (drop_sigs && td.tag == VERITY_TAG_SIGNATURES) ||
		      (drop_algo && td.tag == VERITY_TAG_ALGO)))
			headerPut(h, &td, HEADERPUT_DEFAULT);
		rpmtdFreeData(&td);
	}
	headerFreeIterator(hi);
	headerFree(old);
	return h;
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

int main(int argc, char **argv)
{
	const char *sigs = NULL, *ima = NULL, *in, *out;
	long algo = -1;
	int no_algo = 0, no_sigs = 0;
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
		else
			die("unknown option", argv[i]);
	}

	pkg = slurp(in, &len);
	if (!strcmp(out, "--dump")) {
		int rc = dump(pkg, len, in);

		free(pkg);
		return rc;
	}
	h = fresh_copy(read_sig_header(pkg, len, in, &off), sigs || no_sigs,
		       algo >= 0 || no_algo);
	if (sigs) {
		struct rpmtd_s td;
		int n;
		char *text;
		char **lines = read_lines(sigs, &n, &text);

		rpmtdReset(&td);
		td.tag = VERITY_TAG_SIGNATURES;
		td.type = RPM_STRING_ARRAY_TYPE;
		td.data = lines;
		td.count = (rpm_count_t)n;
		if (n > 0 && !headerPut(h, &td, HEADERPUT_DEFAULT))
			die("cannot store signatures", sigs);
		free(lines);
		free(text);
	}
	if (ima) {
		int n;
		char *text;
		char **lines = read_lines(ima, &n, &text);

		struct rpmtd_s td;

		rpmtdReset(&td);
		td.tag = SIGTAG_IMA_SIGNATURES;
		td.type = RPM_STRING_ARRAY_TYPE;
		td.data = lines;
		td.count = (rpm_count_t)n;
		if (n > 0 && !headerPut(h, &td, HEADERPUT_DEFAULT))
			die("cannot store IMA signatures", ima);
		free(lines);
		free(text);
	}
	if (algo >= 0) {
		uint32_t v = (uint32_t)algo;

		if (!headerPutUint32(h, VERITY_TAG_ALGO, &v, 1))
			die("cannot store the algorithm", in);
	}
	/* Give the new header its region, as rpm's own signature headers have. */
	h = headerReload(h, RPMTAG_HEADERSIGNATURES);
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
	return 0;
}
