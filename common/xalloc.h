/* SPDX-License-Identifier: MIT */
/*
 * Allocation that never returns NULL, for code that must not link librpmio
 * (whose rmalloc family does the same): the scan behind
 * `rpm-verity audit --unowned` runs in a process that loads only libc and
 * SQLite (signer/main.c says why). Out of memory, each prints that and
 * aborts, as rpm's do.
 */
#ifndef RPMVERITY_XALLOC_H
#define RPMVERITY_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);
/* A string made as by sprintf. */
char *xasprintf(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

#endif
