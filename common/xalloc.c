// SPDX-License-Identifier: MIT
#include "xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *need(void *p)
{
	if (!p) {
		fputs("rpm-verity: out of memory\n", stderr);
		abort();
	}
	return p;
}

void *xmalloc(size_t size)
{
	return need(malloc(size ? size : 1));
}

void *xcalloc(size_t n, size_t size)
{
	return need(calloc(n ? n : 1, size ? size : 1));
}

void *xrealloc(void *p, size_t size)
{
	return need(realloc(p, size ? size : 1));
}

char *xstrdup(const char *s)
{
	return need(strdup(s));
}

char *xasprintf(const char *fmt, ...)
{
	char *s = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	return need(n < 0 ? NULL : s);
}
