// SPDX-License-Identifier: MIT
/*
 * audit --unowned in the process `rpm-verity` starts with, which loads only
 * libc and SQLite. The full command (audit_unowned.c, in
 * rpm-verity-commands) first loads librpm, OpenSSL and their libraries and
 * reads rpm's configuration: measured in the guest, more than the whole
 * walk of a distribution's root costs (bench/README.md). The scan of a
 * clean system needs none of it when its options say where the rpmdb is
 * and which certificates name content (--dbpath, --cert: as an audit of a
 * mounted image gives them), and the rpmdb is SQLite.
 *
 * So this takes exactly that case and nothing else: the options below,
 * in their long forms, and a walk that finds nothing. Whatever else it
 * meets (another option, a problem to report, an error) it leaves, having
 * printed nothing, to the full command, which reads the same rpmdb and
 * walks the same way (unowned_walk.c), so the answer never depends on
 * which one gave it. tests/signer/audit_unowned.sh compares the two.
 */
#include "scan.h"
#include "rpmdb_sqlite.h"
#include "xalloc.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct fast_opts {
	const char *root, *dbpath;
	const char **certs, **paths;
	size_t ncerts, npaths;
	bool unowned, json, verbose;
};

/* "--NAME VALUE" or "--NAME=VALUE" at @argv[*i]: the value, or NULL. */
static const char *value_of(const char *name, int argc,
			    const char *const *argv, int *i)
{
	size_t len = strlen(name);

	if (strncmp(argv[*i], name, len) != 0)
		return NULL;
	if (argv[*i][len] == '=')
		return argv[*i] + len + 1;
	if (argv[*i][len] == '\0' && *i + 1 < argc)
		return argv[++*i];
	return NULL;
}

static void push(const char ***list, size_t *n, const char *s)
{
	*list = xrealloc(*list, (*n + 2) * sizeof(**list));
	(*list)[(*n)++] = s;
	(*list)[*n] = NULL;
}

/* Whether @argv is a scan this file takes, read into @o. */
static bool parse(int argc, const char *const *argv, struct fast_opts *o)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;

		if (!strcmp(a, "--unowned"))
			o->unowned = true;
		else if (!strcmp(a, "--json"))
			o->json = true;
		else if (!strcmp(a, "--verbose"))
			o->verbose = true;
		else if ((v = value_of("--root", argc, argv, &i)))
			o->root = v;
		else if ((v = value_of("--dbpath", argc, argv, &i)))
			o->dbpath = v;
		else if ((v = value_of("--cert", argc, argv, &i)))
			push(&o->certs, &o->ncerts, v);
		else if (a[0] != '-' && a[0] != '\0')
			push(&o->paths, &o->npaths, a);
		else
			return false;	/* popt's to read */
	}
	return o->unowned && o->dbpath && o->ncerts;
}

static bool stop_found(struct unowned_walk *w, const char *path,
		       bool verity, size_t ima_len, const char *why)
{
	(void)w, (void)path, (void)verity, (void)ima_len, (void)why;
	return false;
}

static bool stop_error(struct unowned_walk *w, const char *path,
		       const char *what)
{
	(void)w, (void)path, (void)what;
	return false;
}

/* The scan of @o; -1 unless it ran clean. */
static int scan(const struct fast_opts *o)
{
	char absroot[PATH_MAX], *dbdir = NULL, *err = NULL;
	struct audit_owned *owned = NULL;
	struct audit_root root = { .fd = -1, .dir_fd = -1 };
	struct unowned_walk *w = NULL;
	struct audit_report rep;
	struct stat st;
	long packages;
	int status = -1;

	if (!realpath(o->root ? o->root : "/", absroot) ||
	    audit_root_open(&root, absroot, &err) != 0)
		goto out;
	for (size_t i = 0; i < o->ncerts; i++)
		if (audit_cert_file_check(o->certs[i], &err) != 0)
			goto out;
	dbdir = xasprintf("%s/%s", absroot, o->dbpath);
	if (stat(dbdir, &st) != 0 || !S_ISDIR(st.st_mode) ||
	    !rpmdb_sqlite_present(dbdir))
		goto out;
	owned = audit_owned_new(&root);
	packages = rpmdb_sqlite_files(dbdir, audit_owned_add_fn, owned, &err);
	if (packages <= 0)
		goto out;
	w = xcalloc(1, sizeof(*w));
	*w = (struct unowned_walk){
		.root = &root, .owned = owned, .paths = o->paths,
		.found = stop_found, .error = stop_error,
	};
	unowned_walk(w);
	if (w->stopped)
		goto out;
	rep = (struct audit_report){
		.out = stdout, .json = o->json, .verbose = o->verbose,
		.unowned = true, .packages = (unsigned long)packages,
		.scanned = w->scanned,
	};
	audit_report_summary(&rep);
	status = fflush(stdout) == 0 ? 0 : 2;
out:
	free(w);
	audit_owned_free(owned);
	audit_root_close(&root);
	free(dbdir);
	free(err);
	return status;
}

int audit_unowned_fast(int argc, const char *const *argv)
{
	struct fast_opts o = { 0 };
	int status = parse(argc, argv, &o) ? scan(&o) : -1;

	free(o.certs);
	free(o.paths);
	return status;
}
