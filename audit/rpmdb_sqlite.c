// SPDX-License-Identifier: MIT
/*
 * rpmdb_sqlite.h says why. rpm's schema: table Packages (hnum INTEGER
 * PRIMARY KEY, blob BLOB), one header blob per installed package; the
 * other tables are indexes this reader does not need. Opened read-only, as
 * rpm -q opens it: a transaction writing at the same time is seen before
 * or after, never half (SQLite's own isolation).
 */
#include "rpmdb_sqlite.h"
#include <rpm/rpmstring.h>

#include <stdbool.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sqlite3.h>

/* The files of rpm's other backends (ndb, bdb, bdb_ro). */
static const char *const other_backends[] = { "Packages.db", "Packages" };

static bool exists_in(const char *dir, const char *name)
{
	char *path = rstrscat(NULL, dir, "/", name, NULL);
	struct stat st;
	bool there = stat(path, &st) == 0;

	free(path);
	return there;
}

bool rpmdb_sqlite_present(const char *dbdir)
{
	for (size_t i = 0; i < sizeof(other_backends) / sizeof(*other_backends); i++)
		if (exists_in(dbdir, other_backends[i]))
			return false;
	return exists_in(dbdir, RPMDB_SQLITE_FILE);
}

long rpmdb_sqlite_files(const char *dbdir, rpmdb_file_fn fn, void *ctx,
			char **err)
{
	char *path = rstrscat(NULL, dbdir, "/", RPMDB_SQLITE_FILE, NULL);
	sqlite3_stmt *st = NULL;
	sqlite3 *db = NULL;
	long n = 0;
	int rc;

	rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL);
	/* Pages read by mapping, not copied by read(2) one at a time. */
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, "PRAGMA mmap_size = 1073741824", NULL,
				  NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(db, "SELECT hnum, blob FROM Packages", -1,
					&st, NULL);
	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const void *blob = sqlite3_column_blob(st, 1);
		int len = sqlite3_column_bytes(st, 1);
		const char *why = NULL;

		if (!blob || len < 0 ||
		    rpmdb_blob_files(blob, (size_t)len, fn, ctx, &why) != 0) {
			rasprintf(err, "%s: header %lld: %s", path,
				  (long long)sqlite3_column_int64(st, 0),
				  why ? why : "empty");
			n = -1;
			break;
		}
		n++;
		rc = SQLITE_OK;
	}
	if (n >= 0 && rc != SQLITE_DONE) {
		*err = rstrscat(NULL, path, ": ",
				db ? sqlite3_errmsg(db) : "cannot open", NULL);
		n = -1;
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	free(path);
	return n;
}
