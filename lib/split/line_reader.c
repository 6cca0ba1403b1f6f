// SPDX-License-Identifier: MIT
/*
 * See line_reader.h. Input crosses a trust boundary (a manifest comes from
 * a build host, a signature file from a signing server), so nothing here
 * trusts a length or count before checking it, and nothing is lenient:
 * what is not exactly the documented form is refused.
 */
#include "line_reader.h"
#include "file_msg.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <rpm/rpmstring.h>

void line_reader_init(struct line_reader *r, FILE *in, const char *name,
		      size_t max_len)
{
	memset(r, 0, sizeof(*r));
	r->in = in;
	r->name = name;
	r->max_len = max_len;
}

void line_reader_free(struct line_reader *r)
{
	free(r->buf);
	r->buf = NULL;
}

char *line_error(const struct line_reader *r, const char *fmt, ...)
{
	char *where = NULL, *msg;
	va_list ap;

	rasprintf(&where, "%s: line %lu", r->name, r->lineno);
	va_start(ap, fmt);
	msg = prefixed_vmsg(where, fmt, ap);
	va_end(ap);
	free(where);
	return msg;
}

int line_next(struct line_reader *r, char **err)
{
	size_t len = 0;
	int c;

	r->nfields = 0;
	if (!r->buf) {		/* an empty line still needs its terminator */
		r->buf = malloc(256);
		if (!r->buf) {
			*err = line_error(r, "out of memory");
			return -1;
		}
		r->cap = 256;
	}
	/* getc rather than getline: a line longer than the limit is never stored. */
	while ((c = getc(r->in)) != EOF && c != '\n') {
		if (len + 1 >= r->cap) {
			size_t cap = r->cap ? r->cap * 2 : 256;
			char *b;

			if (len >= r->max_len) {
				r->lineno++;
				*err = line_error(r, "line longer than %zu bytes",
						  r->max_len);
				return -1;
			}
			b = realloc(r->buf, cap);
			if (!b) {
				*err = line_error(r, "out of memory");
				return -1;
			}
			r->buf = b;
			r->cap = cap;
		}
		r->buf[len++] = (char)c;
	}
	if (c == EOF && len == 0)
		return ferror(r->in) ? (*err = line_error(r, "read error"), -1) : 0;
	r->lineno++;
	if (c == EOF) {
		*err = line_error(r, "truncated line (no newline at the end)");
		return -1;
	}
	if (len > r->max_len) {
		*err = line_error(r, "line longer than %zu bytes", r->max_len);
		return -1;
	}
	r->buf[len] = '\0';
	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)r->buf[i];

		if (ch < 0x20 || ch == 0x7f) {
			*err = line_error(r, "control character 0x%02x at column %zu",
					  ch, i + 1);
			return -1;
		}
	}
	for (char *p = r->buf;;) {
		char *sp = strchr(p, ' ');

		if (r->nfields == LINE_MAX_FIELDS) {
			*err = line_error(r, "too many fields");
			return -1;
		}
		if (sp)
			*sp = '\0';
		if (!*p) {
			*err = line_error(r, "empty field (extra or missing space)");
			return -1;
		}
		r->field[r->nfields++] = p;
		if (!sp)
			break;
		p = sp + 1;
	}
	return 1;
}

int parse_count(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s || (s[0] == '0' && s[1]) || strlen(s) > 20)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		if (v > (max - (uint64_t)(*s - '0')) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return 0;
}
