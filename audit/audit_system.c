// SPDX-License-Identifier: MIT
/*
 * An installed system opened for reading, as the audit and the enforcer's
 * table loader both need it: the root (never left), the trusted
 * certificates (--cert, else %_fsverity_certs), and its rpmdb, which must
 * exist (librpm would make an empty one, and a wrong --root or --dbpath
 * would then check nothing and pass). Errors librpm logs while the rpmdb is
 * read are counted: a header it cannot read is skipped by librpm, and its
 * files would go unchecked (or, to --unowned, look like no package's).
 */
#include "audit.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <rpm/rpmlog.h>
#include <rpm/rpmmacro.h>
#include <rpm/rpmstring.h>

/* --cert's files, else %_fsverity_certs split at white space. */
static char **cert_paths(const char *const *given, char **list)
{
	char *save = NULL, *file;
	char **paths = NULL;
	size_t n = 0;

	if (given && *given) {
		for (; given[n]; n++) {
			paths = rrealloc(paths, (n + 2) * sizeof(*paths));
			paths[n] = (char *)given[n];
		}
		paths[n] = NULL;
		return paths;
	}
	*list = rpmExpand("%{?_fsverity_certs}", NULL);
	for (file = strtok_r(*list, " \t\n", &save); file;
	     file = strtok_r(NULL, " \t\n", &save)) {
		paths = rrealloc(paths, (n + 2) * sizeof(*paths));
		paths[n++] = file;
		paths[n] = NULL;
	}
	return paths;
}

static int count_rpm_error(rpmlogRec rec, rpmlogCallbackData data)
{
	if (rpmlogRecPriority(rec) <= RPMLOG_ERR)
		(*(unsigned long *)data)++;
	return RPMLOG_DEFAULT;
}

int audit_system_open(struct audit_system *s, const char *who,
		      const char *root, const char *dbpath,
		      const char *const *certs)
{
	char *certlist = NULL, *err = NULL, **paths;
	struct stat st;
	int rc = -1;

	*s = (struct audit_system){ .root = { .fd = -1, .dir_fd = -1 } };
	s->absroot = realpath(root ? root : "/", NULL);
	if (!s->absroot) {
		fprintf(stderr, "%s: %s: cannot use as the root: %s\n", who,
			root, strerror(errno));
		return -1;
	}
	if (audit_root_open(&s->root, s->absroot, &err) != 0) {
		fprintf(stderr, "%s: %s\n", who, err);
		free(err);
		return -1;
	}
	paths = cert_paths(certs, &certlist);
	if (!paths)
		fprintf(stderr, "%s: no certificate: give --cert or set %%_fsverity_certs\n",
			who);
	else if (audit_certs_load((const char *const *)paths, &s->certs,
				  &s->ncerts) == 0)
		rc = 0;
	free(paths);
	free(certlist);
	if (rc)
		return -1;
	if (dbpath)
		rpmPushMacro(NULL, "_dbpath", NULL, dbpath, RMIL_CMDLINE);
	s->dbdir = rpmGetPath(s->absroot, "/", "%{_dbpath}", NULL);
	if (stat(s->dbdir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "%s: %s: no rpmdb there (check --root and --dbpath)\n",
			who, s->dbdir);
		return -1;
	}
	s->ts = rpmtsCreate();
	if (rpmtsSetRootDir(s->ts, s->absroot) != 0 ||
	    rpmtsOpenDB(s->ts, O_RDONLY) != 0) {
		fprintf(stderr, "%s: cannot open the rpmdb under %s\n", who,
			s->absroot);
		return -1;
	}
	rpmlogSetCallback(count_rpm_error, &s->rpm_errors);
	return 0;
}

void audit_system_close(struct audit_system *s)
{
	rpmlogSetCallback(NULL, NULL);
	rpmtsFree(s->ts);
	audit_root_close(&s->root);
	audit_certs_free(s->certs, s->ncerts);
	free(s->absroot);
	free(s->dbdir);
	*s = (struct audit_system){ .root = { .fd = -1, .dir_fd = -1 } };
}
