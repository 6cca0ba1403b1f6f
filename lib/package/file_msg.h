/* SPDX-License-Identifier: MIT */
/* Messages about one file of a package: "PACKAGE: /file/path: reason". */
#ifndef RPMVERITY_FILE_MSG_H
#define RPMVERITY_FILE_MSG_H

#include <rpm/rpmfiles.h>

/* A malloc'ed "@pkg: <file @index>: <formatted reason>". */
char *file_msg(const char *pkg, rpmfiles files, int index, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
