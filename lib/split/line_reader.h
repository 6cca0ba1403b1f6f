/* SPDX-License-Identifier: MIT */
/*
 * The strict line and field reading the manifest and signature formats
 * share: every line ends in a newline, fields are separated by one space,
 * and every complaint names the input and the line.
 */
#ifndef RPMVERITY_LINE_READER_H
#define RPMVERITY_LINE_READER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hex.h"

#define LINE_MAX_FIELDS	8

struct line_reader {
	FILE *in;
	const char *name;	/* for messages: a file name or "stdin" */
	size_t max_len;		/* longer lines are refused */
	unsigned long lineno;
	char *buf;
	size_t cap;
	char *field[LINE_MAX_FIELDS];
	int nfields;
};

void line_reader_init(struct line_reader *r, FILE *in, const char *name,
		      size_t max_len);
void line_reader_free(struct line_reader *r);

/*
 * Read the next line and split it. Returns 1 with the fields set, 0 at the
 * end of input, or -1 with a message in *@err (a line that is too long,
 * holds a NUL or control character, lacks its newline or has empty fields).
 */
int line_next(struct line_reader *r, char **err);

/* A malloc'ed "NAME: line N: MESSAGE". */
char *line_error(const struct line_reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Exactly @len bytes of lowercase hex in @s; 0 or -1. */
static inline int parse_hex(const char *s, uint8_t *out, size_t len)
{
	return hex_decode(s, out, len, 0) == (ssize_t)len ? 0 : -1;
}

/* A decimal number without sign or leading zeros, at most @max; 0 or -1. */
int parse_count(const char *s, uint64_t max, uint64_t *out);

#endif
