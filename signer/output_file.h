/* SPDX-License-Identifier: MIT */
/*
 * Where a manifest or signature file is written: stdout, streamed, or a
 * named file that appears complete or not at all (written beside it under
 * a temporary name and renamed when everything succeeded).
 */
#ifndef RPMVERITY_OUTPUT_FILE_H
#define RPMVERITY_OUTPUT_FILE_H

#include <stdio.h>

struct output_file {
	FILE *f;
	const char *path;	/* NULL: stdout */
	char *tmp;
};

/* 0, or -1 after reporting. */
int output_open(struct output_file *o, const char *path);
/* @ok: keep the output (rename it into place); else drop it. 0 or -1. */
int output_close(struct output_file *o, int ok);

#endif
