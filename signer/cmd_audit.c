// SPDX-License-Identifier: MIT
/*
 * rpm-verity audit: does every installed file that its package signed for
 * fs-verity still have verity, the signed digest, the package's signature
 * and a signer we trust? fs-verity keeps a protected file's bytes from
 * changing, but a signature binds content, not a path: a signed file moved
 * over another, a plain copy put in a file's place, or a file installed
 * under %_fsverity_policy warn without verity all pass the kernel. This
 * command reads the rpmdb as `rpm -V` does and asks the kernel about each
 * file, without reading any file's contents. With --unowned it looks the
 * other way, for signed files at paths no package lists (audit_unowned.c).
 *
 * Exit status: 0 no problem, 1 problems (or a named package not installed),
 * 2 when the audit could not run (usage, root, rpmdb or a header in it
 * librpm could not read, certificates, a file it had no right to open, or
 * with --unowned a directory that could not be walked). A file the kernel refuses to open or
 * measure (EINVAL, EIO: it is damaged, as a power cut can leave it) is a
 * problem, "unreadable", not a reason to give up.
 *
 * This file does the options and the summary; the checks are the audit
 * library's (audit/audit_packages.c, audit/audit_unowned.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <popt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <rpm/rpmdb.h>
#include <rpm/rpmlib.h>
#include <rpm/rpmlog.h>
#include <rpm/rpmmacro.h>
#include <rpm/rpmstring.h>
#include <rpm/rpmstrpool.h>
#include <rpm/rpmts.h>

#include "audit.h"
#include "file_rule.h"
#include "cli.h"
#include "signing_key.h"

/*
 * The certificates' files: --cert, else the plugin's %_fsverity_certs list,
 * split into *@split (its strings in *@list; the caller frees both). NULL,
 * the reason reported, when there is none.
 */
static const char **cert_paths(const char **given, char **list, char ***split)
{
	char *save = NULL, *file;
	size_t np = 0;

	if (given && *given)
		return given;
	*list = rpmExpand("%{?_fsverity_certs}", NULL);
	for (file = strtok_r(*list, " \t\n", &save); file;
	     file = strtok_r(NULL, " \t\n", &save)) {
		*split = rrealloc(*split, (np + 2) * sizeof(**split));
		(*split)[np++] = file;
		(*split)[np] = NULL;
	}
	if (!*split)
		report(rstrdup("audit: no certificate: give --cert or set %_fsverity_certs"));
	return (const char **)*split;
}

/*
 * librpm skips a header it cannot read from the rpmdb ("damaged header
 * ... skipping") and goes on, and that package's files would go unaudited
 * (or, with --unowned, be reported as no package's) while the audit
 * passed. So each error librpm logs while the audit reads the rpmdb is
 * counted here, printed as rpm prints it, and fails the audit.
 */
static int count_rpm_error(rpmlogRec rec, rpmlogCallbackData data)
{
	if (rpmlogRecPriority(rec) <= RPMLOG_ERR)
		(*(unsigned long *)data)++;
	return RPMLOG_DEFAULT;
}

int cmd_audit(int argc, const char **argv)
{
	char *root = NULL, *dbpath = NULL, *err = NULL, *absroot = NULL;
	char *dbdir = NULL, *certlist = NULL, **certsplit = NULL;
	struct stat st;
	const char **certpaths = NULL, **names, **certfiles;
	int json = 0, verbose = 0, unowned = 0, status = 2;
	struct poptOption opts[] = {
		{ "root", 'r', POPT_ARG_STRING, &root, 0,
		  "audit the system installed under DIR (as rpm --root)", "DIR" },
		{ "dbpath", 0, POPT_ARG_STRING, &dbpath, 0,
		  "rpmdb directory, under --root (as rpm --dbpath)", "DIR" },
		{ "cert", 'c', POPT_ARG_ARGV, &certpaths, 0,
		  "trusted X.509 certificate, PEM or DER; may repeat "
		  "(default: %_fsverity_certs)", "CERT" },
		{ "json", 0, POPT_ARG_NONE, &json, 0,
		  "one JSON object per problem, then the summary", NULL },
		{ "verbose", 'v', POPT_ARG_NONE, &verbose, 0,
		  "also list skipped files, and why each problem is one", NULL },
		{ "unowned", 0, POPT_ARG_NONE, &unowned, 0,
		  "instead, walk the PATHs (default: the root's filesystems "
		  "that hold packages' files) for signed files no package owns",
		  NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext("rpm-verity audit", argc, argv, opts, 0);
	struct audit_root aroot = { .fd = -1, .dir_fd = -1 };
	struct audit_report rep = { 0 };
	unsigned long errors = 0;
	X509 **certs = NULL;
	size_t ncerts = 0;
	rpmts ts = NULL;
	unsigned long rpm_errors = 0;
	size_t verifications = 0;
	int c;

	poptSetOtherOptionHelp(ctx, "[OPTION...] [PACKAGE...]\n"
			       "   or: audit --unowned [OPTION...] [PATH...]");
	while ((c = poptGetNextOpt(ctx)) > 0)
		;
	if (c < -1) {
		fprintf(stderr, "rpm-verity audit: %s: %s\n",
			poptBadOption(ctx, POPT_BADOPTION_NOALIAS), poptStrerror(c));
		goto out;
	}
	names = poptGetArgs(ctx);
	absroot = realpath(root ? root : "/", NULL);
	if (!absroot) {
		fprintf(stderr, "rpm-verity audit: %s: cannot use as the root: %s\n",
			root, strerror(errno));
		goto out;
	}
	if (audit_root_open(&aroot, absroot, &err) != 0) {
		report(err);
		goto out;
	}
	certfiles = cert_paths(certpaths, &certlist, &certsplit);
	if (!certfiles || audit_certs_load(certfiles, &certs, &ncerts) != 0)
		goto out;
	if (dbpath)
		rpmPushMacro(NULL, "_dbpath", NULL, dbpath, RMIL_CMDLINE);
	/* librpm would make an empty rpmdb where none is: a wrong --root
	 * or --dbpath must not audit nothing and pass. */
	dbdir = rpmGetPath(absroot, "/", "%{_dbpath}", NULL);
	if (stat(dbdir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "rpm-verity audit: %s: no rpmdb there (check --root and --dbpath)\n",
			dbdir);
		goto out;
	}
	ts = rpmtsCreate();
	if (rpmtsSetRootDir(ts, absroot) != 0 || rpmtsOpenDB(ts, O_RDONLY) != 0) {
		fprintf(stderr, "rpm-verity audit: cannot open the rpmdb under %s\n",
			absroot);
		goto out;
	}
	rep = (struct audit_report){ .out = stdout, .json = json,
				     .verbose = verbose };
	rpmlogSetCallback(count_rpm_error, &rpm_errors);
	if (unowned) {
		struct audit_unowned_opts uo = {
			.root = &aroot, .ts = ts, .dbdir = dbdir,
			.certs = certs, .ncerts = ncerts,
			.paths = names, .rep = &rep,
		};

		errors += audit_unowned(&uo);
		names = NULL;	/* paths, not packages */
		status = 0;
	} else {
		struct audit_packages_opts po = {
			.root = &aroot, .ts = ts, .certs = certs,
			.ncerts = ncerts, .names = names, .rep = &rep,
			.sign_config_files = verity_sign_config_files(),
		};

		status = audit_packages(&po) == 0 ? 0 : 1;
		errors += po.errors;
		verifications = po.verifications;
	}
	rpmlogSetCallback(NULL, NULL);
	if (rpm_errors) {
		fprintf(stderr, "rpm-verity audit: %s: the rpmdb could not be read whole (above)\n",
			dbdir);
		errors++;
	}
	if (!rep.packages && !(names && *names)) {
		fprintf(stderr, "rpm-verity audit: %s: no package installed in this rpmdb\n",
			dbdir);
		errors++;
	}
	if (audit_report_summary(&rep))
		status = 1;
	if (verbose && !json && !unowned)
		printf("audit: %lu files skipped, %zu signature checks\n",
		       rep.skipped, verifications);
	if (errors)
		status = 2;
out:
	if (fflush(stdout) != 0 && status == 0)
		status = 2;
	rpmtsFree(ts);
	audit_root_close(&aroot);
	audit_certs_free(certs, ncerts);
	free(certsplit);
	free(certlist);
	free(absroot);
	free(dbdir);
	free(root);
	free(dbpath);
	for (size_t i = 0; certpaths && certpaths[i]; i++)
		free((char *)certpaths[i]);
	free(certpaths);
	poptFreeContext(ctx);
	return status;
}
