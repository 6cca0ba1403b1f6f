/* SPDX-License-Identifier: MIT */
/*
 * The file list of an installed package's header as the rpmdb stores it
 * (a blob: tag count, data length, 16-byte index entries, data), read
 * here rather than by librpm: basenames (1117), dirnames (1118), dirindexes (1116) and
 * modes (1030), nothing else. --unowned needs only these, and librpm's
 * headerImport sorts and copies every entry of every header first, which
 * was most of a clean scan's cost (bench/README.md). The blob is outside
 * bytes: everything is checked against its length before use
 * (tests/fuzz/fuzz_rpmdb_blob.c compares the result with librpm's).
 */
#ifndef RPMVERITY_RPMDB_BLOB_H
#define RPMVERITY_RPMDB_BLOB_H

#include <stddef.h>
#include <stdint.h>

/* One listed file: @dir as rpm keeps it, with its trailing slash. */
typedef void (*rpmdb_file_fn)(void *ctx, const char *dir, const char *base,
			      uint16_t mode);

/*
 * Call @fn for each file @blob (@len bytes) lists, after the whole list was
 * checked: 0, or -1 with the reason in *@why (a constant string) and no
 * call made. A header without file names (a package of no files) lists
 * none.
 */
int rpmdb_blob_files(const uint8_t *blob, size_t len, rpmdb_file_fn fn,
		     void *ctx, const char **why);

#endif
