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

int cmd_audit(int argc, const char **argv)
{
	char *root = NULL, *dbpath = NULL;
	const char **certpaths = NULL, **names;
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
	struct audit_system sys = { .root = { .fd = -1, .dir_fd = -1 } };
	struct audit_report rep = { 0 };
	unsigned long errors = 0;
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
	if (audit_system_open(&sys, "rpm-verity audit", root, dbpath,
			      certpaths) != 0)
		goto out;
	rep = (struct audit_report){ .out = stdout, .json = json,
				     .verbose = verbose };
	if (unowned) {
		struct audit_unowned_opts uo = {
			.root = &sys.root, .ts = sys.ts, .dbdir = sys.dbdir,
			.certs = sys.certs, .ncerts = sys.ncerts,
			.paths = names, .rep = &rep,
		};

		errors += audit_unowned(&uo);
		names = NULL;	/* paths, not packages */
		status = 0;
	} else {
		struct audit_packages_opts po = {
			.root = &sys.root, .ts = sys.ts, .certs = sys.certs,
			.ncerts = sys.ncerts, .names = names, .rep = &rep,
			.sign_config_files = verity_sign_config_files(),
		};

		status = audit_packages(&po) == 0 ? 0 : 1;
		errors += po.errors;
		verifications = po.verifications;
	}
	if (sys.rpm_errors) {
		fprintf(stderr, "rpm-verity audit: %s: the rpmdb could not be read whole (above)\n",
			sys.dbdir);
		errors++;
	}
	if (!rep.packages && !(names && *names)) {
		fprintf(stderr, "rpm-verity audit: %s: no package installed in this rpmdb\n",
			sys.dbdir);
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
	audit_system_close(&sys);
	free(root);
	free(dbpath);
	for (size_t i = 0; certpaths && certpaths[i]; i++)
		free((char *)certpaths[i]);
	free(certpaths);
	poptFreeContext(ctx);
	return status;
}
