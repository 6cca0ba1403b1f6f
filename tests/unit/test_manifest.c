// SPDX-License-Identifier: MIT
/*
 * The manifest and signature file parsers (signer/manifest.c, sigfile.c):
 * a written package reads back the same, valid input passes, and every
 * truncation and every single-byte change of a valid file is either
 * accepted or refused, never a crash (run under ASan/UBSan). The same
 * entry point, manifest_parse_buffer(), serves the fuzz targets.
 */
#include <string.h>

#include "check.h"
#include "manifest.h"
#include "sigfile.h"

static const char manifest[] =
	"rpm-verity-manifest 1\n"
	"package a-1:2-3.x86_64 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef 3\n"
	"file 0 sha256 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\n"
	"file 1 none\n"
	"file 2 sha256 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\n"
	"package b-1-1.noarch ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff 0\n"
	"end 2\n";

/* "MAMCAQA=" is DER 30 03 02 01 00: one SEQUENCE, as the parser checks. */
static const char sigfile[] =
	"rpm-verity-signatures 1\n"
	"package a-2-3.x86_64 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef 2\n"
	"sig 0 sha512 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff MAMCAQA=\n"
	"sig 1 none\n"
	"end 1\n";

static int parse(const struct manifest_format *f, const char *s, size_t n)
{
	return manifest_parse_buffer(f, (const uint8_t *)s, n);
}

/* Every prefix and every byte changed to a few values: no crash. */
static void mutate(const struct manifest_format *f, const char *good)
{
	static const char repl[] = { '\0', '\n', ' ', '0', 'f', 'g', '9', '=', '\xff' };
	size_t n = strlen(good);
	char *buf = malloc(n);
	int accepted = 0, tried = 0;

	for (size_t len = 0; len < n; len++)
		CHECK(parse(f, good, len) == -1);	/* every prefix lacks its end */
	for (size_t i = 0; i < n; i++) {
		for (size_t r = 0; r < sizeof(repl); r++) {
			memcpy(buf, good, n);
			if (buf[i] == repl[r])
				continue;
			buf[i] = repl[r];
			tried++;
			accepted += parse(f, buf, n) == 0;
		}
	}
	/* Some changes stay valid (hex digits, names); most must not. */
	printf("%s: %d of %d one-byte changes accepted\n", f->magic, accepted, tried);
	CHECK(accepted > 0 && accepted < tried / 2);
	free(buf);
}

static void round_trip(void)
{
	struct manifest_package p, q, end;
	struct manifest_reader r;
	char *text = NULL, *err = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len), *in;

	CHECK(manifest_package_init(&p, "x-1-1.noarch", 4) == 0);
	p.alg = verity_hash_alg_by_name("sha256");
	for (uint32_t i = 0; i < 4; i++) {
		p.present[i] = i != 2;
		memset(manifest_digest(&p, i), (int)(0x11 * i), 32);
	}
	p.binding[0] = 0xab;
	CHECK(manifest_write_start(out, &manifest_format) == 0);
	CHECK(manifest_write_package(out, &manifest_format, &p) == 0);
	CHECK(manifest_write_end(out, &manifest_format, 1) == 0);
	fclose(out);

	in = fmemopen(text, len, "r");
	manifest_reader_init(&r, &manifest_format, in, "mem");
	CHECK(manifest_read_package(&r, &q, &err) == 1);
	CHECK(q.count == 4 && q.alg == p.alg && !strcmp(q.nevra, p.nevra));
	CHECK(!memcmp(q.binding, p.binding, BINDING_SIZE));
	CHECK(!memcmp(q.present, p.present, 4));
	for (uint32_t i = 0; i < 4; i++)
		CHECK(!p.present[i] ||
		      !memcmp(manifest_digest(&q, i), manifest_digest(&p, i), 32));
	CHECK(manifest_read_package(&r, &end, &err) == 0);
	manifest_reader_free(&r);
	manifest_package_free(&q);
	manifest_package_free(&p);
	fclose(in);
	free(text);
}

int main(void)
{
	size_t len = 0;
	uint8_t *der;

	CHECK(parse(&manifest_format, manifest, strlen(manifest)) == 0);
	CHECK(parse(&sigfile_format, sigfile, strlen(sigfile)) == 0);
	/* each format refuses the other */
	CHECK(parse(&sigfile_format, manifest, strlen(manifest)) == -1);
	CHECK(parse(&manifest_format, sigfile, strlen(sigfile)) == -1);
	der = sigfile_decode("MAMCAQA=", &len);
	CHECK(der && len == 5 && der[0] == 0x30);
	free(der);
	CHECK(sigfile_decode("MAMCAQA", &len) == NULL);
	CHECK(sigfile_decode("MA=CAQA=", &len) == NULL);
	CHECK(sigfile_decode("====", &len) == NULL);
	round_trip();
	mutate(&manifest_format, manifest);
	mutate(&sigfile_format, sigfile);
	return check_report();
}
