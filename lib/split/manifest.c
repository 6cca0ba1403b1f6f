// SPDX-License-Identifier: MIT
/*
 * Reading and writing manifests (and, through struct manifest_format,
 * signature files). Version 1:
 *
 *   rpm-verity-manifest 1
 *   package NEVRA BINDING-HEX FILE-COUNT
 *   file INDEX ALGORITHM DIGEST-HEX      (or: file INDEX none)
 *   ...                                  (one line per file, index order)
 *   end PACKAGE-COUNT
 *
 * The end line makes a stream cut short between packages detectable.
 */
#include "manifest.h"
#include "hex.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <rpm/rpmstring.h>

#define FORMAT_VERSION	"1"

const struct manifest_format manifest_format = {
	.magic = "rpm-verity-manifest",
	.entry = "file",
};

int manifest_package_init(struct manifest_package *p, const char *nevra,
			  uint32_t count)
{
	memset(p, 0, sizeof(*p));
	p->nevra = strdup(nevra);
	p->count = count;
	p->digests = calloc(count ? count : 1, VERITY_MAX_DIGEST_SIZE);
	p->present = calloc(count ? count : 1, 1);
	if (!p->nevra || !p->digests || !p->present) {
		manifest_package_free(p);
		return -1;
	}
	return 0;
}

void manifest_package_free(struct manifest_package *p)
{
	for (uint32_t i = 0; p->sigs && i < p->count; i++)
		free(p->sigs[i]);
	for (uint32_t i = 0; p->ima && i < p->count; i++)
		free(p->ima[i]);
	free(p->sigs);
	free(p->ima);
	free(p->nevra);
	free(p->digests);
	free(p->present);
	memset(p, 0, sizeof(*p));
}

int manifest_write_start(FILE *out, const struct manifest_format *f)
{
	return fprintf(out, "%s %s\n", f->magic, FORMAT_VERSION) < 0 ? -1 : 0;
}

int manifest_write_package(FILE *out, const struct manifest_format *f,
			   const struct manifest_package *p)
{
	char hex[2 * VERITY_MAX_DIGEST_SIZE + 1];

	hex_encode(p->binding, BINDING_SIZE, hex);
	if (fprintf(out, "package %s %s %u\n", p->nevra, hex, p->count) < 0)
		return -1;
	for (uint32_t i = 0; i < p->count; i++) {
		if (!p->present[i]) {
			if (fprintf(out, "%s %u none\n", f->entry, i) < 0)
				return -1;
			continue;
		}
		hex_encode(manifest_digest(p, i), p->alg->digest_size, hex);
		if (fprintf(out, "%s %u %s %s", f->entry, i, p->alg->name, hex) < 0 ||
		    (f->write_extra && f->write_extra(out, p, i) != 0) ||
		    putc('\n', out) == EOF)
			return -1;
		if (f->write_follow && f->write_follow(out, p, i) != 0)
			return -1;
	}
	return 0;
}

int manifest_write_end(FILE *out, const struct manifest_format *f,
		       unsigned long npackages)
{
	(void)f;
	return fprintf(out, "end %lu\n", npackages) < 0 ? -1 : 0;
}

void manifest_reader_init(struct manifest_reader *r,
			  const struct manifest_format *f, FILE *in,
			  const char *name)
{
	memset(r, 0, sizeof(*r));
	r->f = f;
	line_reader_init(&r->lines, in, name, MANIFEST_MAX_LINE);
}

void manifest_reader_free(struct manifest_reader *r)
{
	line_reader_free(&r->lines);
}

/* The next line: the one read ahead, if any (line_next's return value). */
static int next_line(struct manifest_reader *r, char **err)
{
	if (r->held) {
		r->held = 0;
		return r->held_rc;
	}
	return line_next(&r->lines, err);
}

/* Reads the next line; end of input is an error here (the end line is due). */
static int need_line(struct manifest_reader *r, const char *what, char **err)
{
	int rc = next_line(r, err);

	if (rc == 0) {
		r->lines.lineno++;
		*err = line_error(&r->lines, "input ends before %s (truncated)",
				  what);
		return -1;
	}
	return rc < 0 ? -1 : 0;
}

static int is_word(const struct line_reader *l, const char *word)
{
	return strcmp(l->field[0], word) == 0;
}

static int read_start(struct manifest_reader *r, char **err)
{
	struct line_reader *l = &r->lines;

	if (need_line(r, "the version line", err))
		return -1;
	if (!is_word(l, r->f->magic)) {
		*err = line_error(l, "not an rpm-verity %s (expected \"%s %s\")",
				  r->f == &manifest_format ? "manifest" : "signature file",
				  r->f->magic, FORMAT_VERSION);
		return -1;
	}
	if (l->nfields != 2 || strcmp(l->field[1], FORMAT_VERSION) != 0) {
		*err = line_error(l, "unsupported version (this rpm-verity reads version %s)",
				  FORMAT_VERSION);
		return -1;
	}
	r->started = 1;
	return 0;
}

/* "end N": the package count must match, and nothing may follow. */
static int read_end(struct manifest_reader *r, char **err)
{
	struct line_reader *l = &r->lines;
	uint64_t n;
	int rc;

	if (l->nfields != 2 || parse_count(l->field[1], UINT32_MAX, &n)) {
		*err = line_error(l, "malformed end line (expected \"end PACKAGE-COUNT\")");
		return -1;
	}
	if (n != r->packages) {
		*err = line_error(l, "end line says %llu packages, %lu were given (a package was dropped or added)",
				  (unsigned long long)n, r->packages);
		return -1;
	}
	rc = line_next(l, err);
	if (rc > 0)
		*err = line_error(l, "text after the end line");
	if (rc != 0)
		return -1;
	r->ended = 1;
	return 0;
}

static int valid_nevra(const char *s)
{
	size_t n = strlen(s);

	return n > 0 && n <= MANIFEST_MAX_NEVRA;
}

static int read_package_line(struct manifest_reader *r,
			     struct manifest_package *p, char **err)
{
	struct line_reader *l = &r->lines;
	uint8_t binding[BINDING_SIZE];
	uint64_t count;

	if (l->nfields != 4) {
		*err = line_error(l, "malformed package line (expected \"package NEVRA BINDING FILE-COUNT\")");
		return -1;
	}
	if (!valid_nevra(l->field[1])) {
		*err = line_error(l, "package name longer than %d bytes",
				  MANIFEST_MAX_NEVRA);
		return -1;
	}
	if (parse_hex(l->field[2], binding, BINDING_SIZE)) {
		*err = line_error(l, "bad hex in the binding digest (want %d lowercase hex digits)",
				  2 * BINDING_SIZE);
		return -1;
	}
	if (parse_count(l->field[3], MANIFEST_MAX_FILES, &count)) {
		*err = line_error(l, "bad file count '%s' (0 to %u)", l->field[3],
				  MANIFEST_MAX_FILES);
		return -1;
	}
	/* Memory follows the lines actually read, not the count announced. */
	if (manifest_package_init(p, l->field[1], 0) != 0) {
		*err = line_error(l, "out of memory");
		return -1;
	}
	memcpy(p->binding, binding, BINDING_SIZE);
	p->count = (uint32_t)count;
	return 0;
}

/* @have more entries, NULL, in *@arr, which holds @had. */
static int grow_strings(char ***arr, uint32_t had, size_t n)
{
	char **s = realloc(*arr, n * sizeof(**arr));

	if (!s)
		return -1;
	*arr = s;
	memset(s + had, 0, (n - had) * sizeof(*s));
	return 0;
}

static int grow(struct manifest_package *p, uint32_t have, int sigs)
{
	size_t n = have ? (size_t)have * 2 : 16;
	void *d, *pr;

	if (n > p->count)
		n = p->count;
	d = realloc(p->digests, n * VERITY_MAX_DIGEST_SIZE);
	if (d)
		p->digests = d;
	pr = realloc(p->present, n);
	if (pr)
		p->present = pr;
	if (!d || !pr)
		return -1;
	if (sigs && (grow_strings(&p->sigs, have, n) ||
		     grow_strings(&p->ima, have, n)))
		return -1;
	return (int)(n - have);
}

static int read_entry(struct manifest_reader *r, struct manifest_package *p,
		      uint32_t index, char **err)
{
	struct line_reader *l = &r->lines;
	const struct manifest_format *f = r->f;
	const struct verity_hash_alg *alg;
	uint64_t got;

	if (l->nfields < 3 || (strcmp(l->field[2], "none") == 0 ?
			       l->nfields != 3 : l->nfields != 4 + f->extra_fields)) {
		*err = line_error(l, "malformed %s line (package %s)", f->entry,
				  p->nevra);
		return -1;
	}
	if (parse_count(l->field[1], UINT32_MAX, &got) || got != index) {
		*err = line_error(l, "package %s: file index %s where %u was due (a line was dropped, added or moved)",
				  p->nevra, l->field[1], index);
		return -1;
	}
	if (l->nfields == 3) {
		p->present[index] = 0;
		if (p->sigs)
			p->sigs[index] = NULL;
		return 0;
	}
	alg = verity_hash_alg_by_name(l->field[2]);
	if (!alg) {
		*err = line_error(l, "package %s: file %u: unknown algorithm '%s' (sha256 or sha512)",
				  p->nevra, index, l->field[2]);
		return -1;
	}
	if (p->alg && p->alg != alg) {
		*err = line_error(l, "package %s: file %u: algorithm %s in a package whose files use %s",
				  p->nevra, index, alg->name, p->alg->name);
		return -1;
	}
	p->alg = alg;
	if (parse_hex(l->field[3], manifest_digest(p, index), alg->digest_size)) {
		*err = line_error(l, "package %s: file %u: bad hex in the digest (want %d lowercase hex digits)",
				  p->nevra, index, 2 * alg->digest_size);
		return -1;
	}
	p->present[index] = 1;
	if (f->parse_extra)
		return f->parse_extra(l, p, index, l->field + 4, err);
	return 0;
}

/*
 * The optional line after file @index's: read ahead, and held for the next
 * read when it is something else. At the end of input it is left to the
 * next read to say what is missing.
 */
static int read_follow(struct manifest_reader *r, struct manifest_package *p,
		       uint32_t index, char **err)
{
	struct line_reader *l = &r->lines;
	int rc = line_next(l, err);

	if (rc < 0)
		return -1;
	if (rc > 0 && is_word(l, r->f->follow))
		return r->f->parse_follow(l, p, index, l->field + 1,
					  l->nfields - 1, err);
	r->held = 1;
	r->held_rc = rc;
	return rc ? r->f->parse_follow(l, p, index, NULL, 0, err) : 0;
}

int manifest_read_package(struct manifest_reader *r,
			  struct manifest_package *p, char **err)
{
	struct line_reader *l = &r->lines;
	uint32_t have = 0, room = 0;

	memset(p, 0, sizeof(*p));
	if (r->ended) {
		*err = line_error(l, "read past the end line");
		return -1;
	}
	if (!r->started && read_start(r, err))
		return -1;
	if (need_line(r, "the end line", err))
		return -1;
	if (is_word(l, "end"))
		return read_end(r, err) ? -1 : 0;
	if (!is_word(l, "package")) {
		*err = line_error(l, "expected a package or end line, got '%s'",
				  l->field[0]);
		return -1;
	}
	if (read_package_line(r, p, err))
		return -1;
	if (r->f->parse_extra && (!(p->sigs = calloc(1, sizeof(*p->sigs))) ||
				  !(p->ima = calloc(1, sizeof(*p->ima)))))
		goto oom;
	for (; have < p->count; have++) {
		if (have == room) {
			int more = grow(p, room, r->f->parse_extra != NULL);

			if (more < 0)
				goto oom;
			room += (uint32_t)more;
		}
		if (need_line(r, "the package's last file line", err))
			goto fail;
		if (!is_word(l, r->f->entry)) {
			*err = line_error(l, "package %s: %u file lines where %u were announced (a line was dropped)",
					  p->nevra, have, p->count);
			goto fail;
		}
		if (read_entry(r, p, have, err) ||
		    (r->f->follow && read_follow(r, p, have, err)))
			goto fail;
	}
	r->packages++;
	return 1;
oom:
	*err = line_error(l, "out of memory");
fail:
	/* Only @room entries exist (grow() zeroed the signatures it added). */
	p->count = room;
	manifest_package_free(p);
	return -1;
}

int manifest_parse_buffer(const struct manifest_format *f, const uint8_t *data,
			  size_t size)
{
	struct manifest_reader r;
	struct manifest_package p;
	char *err = NULL;
	FILE *in;
	int rc;

	if (size == 0)		/* fmemopen refuses it; not a manifest anyway */
		return -1;
	in = fmemopen((void *)data, size, "r");
	if (!in)
		return -1;
	manifest_reader_init(&r, f, in, "fuzz");
	while ((rc = manifest_read_package(&r, &p, &err)) > 0)
		manifest_package_free(&p);
	manifest_reader_free(&r);
	fclose(in);
	free(err);
	return rc;
}
