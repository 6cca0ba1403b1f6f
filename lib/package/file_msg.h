/* SPDX-License-Identifier: MIT */
/*
 * Messages that say where and why: "PREFIX: reason", the one shape of an
 * error about a package's file ("PACKAGE: /file/path: reason") and about a
 * line of a manifest or signature file ("NAME: line N: reason").
 */
#ifndef RPMVERITY_FILE_MSG_H
#define RPMVERITY_FILE_MSG_H

#include <stdarg.h>
#include <rpm/rpmfiles.h>

/* A malloc'ed "@prefix: <the reason @fmt and @ap format>". */
char *prefixed_vmsg(const char *prefix, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

/* A malloc'ed "@pkg: <file @index>: <formatted reason>". */
char *file_msg(const char *pkg, rpmfiles files, int index, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
