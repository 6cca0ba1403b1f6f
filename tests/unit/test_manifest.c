// SPDX-License-Identifier: MIT
/*
 * The manifest and signature file parsers (lib/split/manifest.c, sigfile.c):
 * a written package reads back the same, valid input passes, and every
 * truncation and every single-byte change of a valid file is either
 * accepted or refused, never a crash (run under ASan/UBSan). The same
 * entry point, manifest_parse_buffer(), serves the fuzz targets. Signature
 * files with ima lines: each way of getting one wrong is refused.
 */
#include <string.h>

#include "../lib/check.h"
#include "ima_sig.h"
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

#define DIGEST512 "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff" \
		  "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
/* IMA sigv3: type 6, version 3, sha512 (6), key id, size 1, one byte. */
#define IMA_A	"06030601020304" "0001" "aa"
#define IMA_B	"06030601020304" "0001" "bb"

static const char sigfile_ima[] =
	"rpm-verity-signatures 1\n"
	"package a-2-3.x86_64 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef 3\n"
	"sig 0 sha512 " DIGEST512 " MAMCAQA=\n"
	"ima 0 " IMA_A "\n"
	"sig 1 none\n"
	"sig 2 sha512 " DIGEST512 " MAMCAQA=\n"
	"ima 2 " IMA_B "\n"
	"end 1\n";

static int parse(const struct manifest_format *f, const char *s, size_t n)
{
	return manifest_parse_buffer(f, (const uint8_t *)s, n);
}

/* sigfile_ima with the first @from replaced by @to: does it parse? */
static int parse_ima_edit(const char *from, const char *to)
{
	const char *at = strstr(sigfile_ima, from);
	size_t cap = sizeof(sigfile_ima) + strlen(to);
	char *buf = malloc(cap);
	int n, rc;

	CHECK(at != NULL && buf != NULL);
	if (!at || !buf) {
		free(buf);
		return 0;
	}
	n = snprintf(buf, cap, "%.*s%s%s", (int)(at - sigfile_ima),
		     sigfile_ima, to, at + strlen(from));
	CHECK(n > 0 && (size_t)n < cap);
	rc = parse(&sigfile_format, buf, strlen(buf));
	free(buf);
	return rc;
}

static void ima_lines(void)
{
	struct manifest_reader r;
	struct manifest_package p;
	char *err = NULL;
	FILE *in = fmemopen((void *)sigfile_ima, strlen(sigfile_ima), "r");

	manifest_reader_init(&r, &sigfile_format, in, "mem");
	CHECK(manifest_read_package(&r, &p, &err) == 1);
	CHECK(p.nima == 2 && p.ima && !strcmp(p.ima[0], IMA_A) && !p.ima[1] &&
	      !strcmp(p.ima[2], IMA_B));
	manifest_package_free(&p);
	manifest_reader_free(&r);
	fclose(in);

	/* the untouched file passes; the manifest format knows no ima line */
	CHECK(parse_ima_edit("end", "end") == 0);
	CHECK(parse(&manifest_format, sigfile_ima, strlen(sigfile_ima)) == -1);
	/* a package without ima lines is still fine (version 1 as before) */
	CHECK(parse(&sigfile_format, sigfile, strlen(sigfile)) == 0);
	/* refused: */
	CHECK(parse_ima_edit("ima 0 0603", "ima 0 0603 ") == -1);	/* empty field */
	CHECK(parse_ima_edit(IMA_A "\n", IMA_A " x\n") == -1);	/* fields */
	CHECK(parse_ima_edit("ima 0 ", "ima 2 ") == -1);		/* another file's */
	CHECK(parse_ima_edit("ima 0 ", "ima 00 ") == -1);
	CHECK(parse_ima_edit("ima 0 " IMA_A "\n", "") == -1);		/* first dropped */
	CHECK(parse_ima_edit("ima 2 " IMA_B "\n", "") == -1);		/* last dropped */
	CHECK(parse_ima_edit("sig 1 none\n", "sig 1 none\nima 1 " IMA_A "\n") == -1);
	CHECK(parse_ima_edit("ima 2 " IMA_B "\n", "ima 2 " IMA_B "\nima 2 " IMA_B "\n") == -1);
	CHECK(parse_ima_edit("0001aa", "0001AA") == -1);		/* uppercase */
	CHECK(parse_ima_edit("0001aa", "0001aa00") == -1);		/* trailing byte */
	CHECK(parse_ima_edit("0001aa", "0001a") == -1);		/* odd length */
	CHECK(parse_ima_edit("0001aa", "0000") == -1);		/* empty signature */
	CHECK(parse_ima_edit("06030601", "06030401") == -1);		/* sha256 value, sha512 package */
	CHECK(parse_ima_edit("06030601", "03030601") == -1);		/* type 3 */
	CHECK(parse_ima_edit("06030601", "06020601") == -1);		/* version 2 */
	CHECK(parse_ima_edit("ima 0 " IMA_A, "ima 0 0603") == -1);	/* truncated header */
	/* a line longer than IMA_VALUE_MAX bytes of hex */
	{
		size_t n = 2 * (IMA_SIG_HDR_SIZE + IMA_SIG_MAX_SIZE + 1);
		char *big = malloc(n + 1);

		memset(big, 'a', n);
		big[n] = '\0';
		CHECK(parse_ima_edit(IMA_A, big) == -1);
		free(big);
	}
}

/* Written ima lines read back the same. */
static void ima_round_trip(void)
{
	struct manifest_package p, q;
	struct manifest_reader r;
	char *text = NULL, *err = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len), *in;

	CHECK(manifest_package_init(&p, "x-1-1.noarch", 3) == 0);
	p.alg = verity_hash_alg_by_name("sha512");
	p.sigs = calloc(3, sizeof(*p.sigs));
	p.ima = calloc(3, sizeof(*p.ima));
	for (uint32_t i = 0; i < 3; i += 2) {
		p.present[i] = 1;
		p.sigs[i] = strdup("MAMCAQA=");
		p.ima[i] = strdup(i ? IMA_B : IMA_A);
	}
	CHECK(manifest_write_start(out, &sigfile_format) == 0);
	CHECK(manifest_write_package(out, &sigfile_format, &p) == 0);
	CHECK(manifest_write_end(out, &sigfile_format, 1) == 0);
	fclose(out);
	CHECK(strstr(text, "\nima 0 " IMA_A "\nsig 1 none\nsig 2 ") != NULL);
	in = fmemopen(text, len, "r");
	manifest_reader_init(&r, &sigfile_format, in, "mem");
	CHECK(manifest_read_package(&r, &q, &err) == 1);
	CHECK(q.nima == 2 && !strcmp(q.ima[0], IMA_A) && !q.ima[1] &&
	      !strcmp(q.ima[2], IMA_B));
	manifest_reader_free(&r);
	manifest_package_free(&q);
	manifest_package_free(&p);
	fclose(in);
	free(text);
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
	ima_lines();
	ima_round_trip();
	mutate(&manifest_format, manifest);
	mutate(&sigfile_format, sigfile);
	mutate(&sigfile_format, sigfile_ima);
	return check_report();
}
