/* SPDX-License-Identifier: MIT */
/*
 * The rpmdb's installed file lists read straight from its SQLite file
 * (rpm's default backend since 4.16, and Fedora's, CentOS Stream's and
 * Debian's), not through librpm's iterator: its headerImport sorts and
 * copies every entry of every header, which cost --unowned more than the
 * walk itself (bench/README.md). Any other
 * backend, or anything this reader does not expect, is left to librpm by
 * the caller.
 */
#ifndef RPMVERITY_RPMDB_SQLITE_H
#define RPMVERITY_RPMDB_SQLITE_H

#include <stdbool.h>

#include "rpmdb_blob.h"

/* The file rpm keeps the rpmdb in, in its directory (%_dbpath). */
#define RPMDB_SQLITE_FILE "rpmdb.sqlite"

/*
 * Whether the rpmdb in directory @dbdir is one this reader can take: an
 * rpmdb.sqlite there, and no other backend's files beside it that would
 * make which one rpm reads a question of its configuration.
 */
bool rpmdb_sqlite_present(const char *dbdir);

/*
 * Call @fn for every file of every package in @dbdir's rpmdb.sqlite, each
 * header checked (rpmdb_blob.h) before any of its files is passed on.
 * Returns the number of packages, or -1 with the reason, naming the file,
 * in *@err (the caller frees it); @fn may then have had the files of the
 * packages read before, which the caller throws away.
 */
long rpmdb_sqlite_files(const char *dbdir, rpmdb_file_fn fn, void *ctx,
			char **err);

#endif
