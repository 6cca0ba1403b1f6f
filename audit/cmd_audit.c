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
#include "cli.h"
#include "signing_key.h"

struct audit {
	struct audit_root root;
	struct audit_sigcache *sigs;
	struct audit_report rep;
	struct audit_file_state st;	/* big: reused for every file */
	rpmstrPool pool;		/* every package's file names */
	bool sign_config_files;
	bool warned_no_sig_read;
	unsigned long errors;
};

/* IMA values are a few hundred bytes; the kernel caps xattrs at 64 KiB. */
#define IMA_MAX 4096

static void check_ima(struct audit *a, const struct audit_pkg *pkg, int i,
		      int fd, const char *path)
{
	uint8_t want[IMA_MAX], have[IMA_MAX];
	ssize_t wn = audit_pkg_ima(pkg, i, want, sizeof(want)), hn;

	if (wn == 0)
		return;
	if (wn < 0) {
		audit_report_problem(&a->rep, AUDIT_IMA, pkg->nevra, path,
				     "the package's IMA signature is not hex");
		return;
	}
	hn = audit_read_ima(fd, have, sizeof(have));
	if (hn < 0)
		audit_report_problem(&a->rep, AUDIT_IMA, pkg->nevra, path,
				     errno == ENODATA ? "no security.ima" :
				     strerror(errno));
	else if (hn != wn || memcmp(have, want, (size_t)wn) != 0)
		audit_report_problem(&a->rep, AUDIT_IMA, pkg->nevra, path,
				     "security.ima is not the package's");
}

/* The file's builtin signature against the package's, byte for byte. */
static void check_builtin_sig(struct audit *a, const struct audit_pkg *pkg,
			      const char *path, const uint8_t *der, size_t len)
{
	const struct audit_file_state *st = &a->st;

	if (st->sig_errno == 0) {
		if (!der || st->sig_len != len || memcmp(st->sig, der, len))
			audit_report_problem(&a->rep, AUDIT_SIG_DIFFERS,
					     pkg->nevra, path,
					     "verity was enabled with another signature");
	} else if (st->sig_errno == ENODATA) {
		audit_report_problem(&a->rep, AUDIT_SIG_DIFFERS, pkg->nevra,
				     path, "verity was enabled without a signature");
	} else if (!a->warned_no_sig_read) {
		/* btrfs before 6.14 without our patch 0002: ENOTTY. */
		a->warned_no_sig_read = true;
		fprintf(stderr, "rpm-verity audit: %s: cannot read builtin signatures (%s); not compared on this filesystem\n",
			path, strerror(st->sig_errno));
	}
}

static void audit_file(struct audit *a, const struct audit_pkg *pkg, int i)
{
	const struct audit_file_state *st = &a->st;
	const struct file_sig *sig = audit_pkg_sig(pkg, i);
	const char *why;
	char *path = rpmfilesFN(pkg->files, i);
	enum audit_sig_verdict signer = AUDIT_SIG_MALFORMED;
	const uint8_t *der = NULL;
	size_t len = 0;
	int fd;

	if (!audit_pkg_wants(pkg, i, &why)) {
		audit_report_skip(&a->rep, pkg->nevra, path, why);
		goto out;
	}
	a->rep.checked++;
	fd = audit_root_openat(&a->root,
			       rpmfilesDN(pkg->files, rpmfilesDI(pkg->files, i)),
			       rpmfilesBN(pkg->files, i));
	if (fd < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			audit_report_problem(&a->rep, AUDIT_MISSING, pkg->nevra,
					     path, NULL);
		else if (errno == ELOOP)
			audit_report_problem(&a->rep, AUDIT_VERITY_OFF,
					     pkg->nevra, path,
					     "a symlink (not followed)");
		else if (audit_errno_is_file_damage(errno))
			audit_report_problem(&a->rep, AUDIT_UNREADABLE,
					     pkg->nevra, path, strerror(errno));
		else {
			fprintf(stderr, "rpm-verity audit: %s: cannot open: %s\n",
				path, strerror(errno));
			a->errors++;
		}
		goto out;
	}
	audit_measure(fd, &a->st);
	if (st->err) {
		if (audit_errno_is_file_damage(st->err)) {
			audit_report_problem(&a->rep, AUDIT_UNREADABLE,
					     pkg->nevra, path,
					     strerror(st->err));
		} else {
			fprintf(stderr, "rpm-verity audit: %s: cannot measure: %s\n",
				path, strerror(st->err));
			a->errors++;
		}
		close(fd);
		goto out;
	}
	if (!st->verity)
		audit_report_problem(&a->rep, AUDIT_VERITY_OFF, pkg->nevra, path,
				     st->regular ? NULL : "not a regular file");
	if (sig->state == FILE_SIG_OK) {
		der = sig->bytes;
		len = sig->len;
		signer = audit_sigcache_signer(a->sigs, der, len);
	}
	if (signer == AUDIT_SIG_UNTRUSTED || signer == AUDIT_SIG_MALFORMED)
		audit_report_problem(&a->rep, AUDIT_UNTRUSTED, pkg->nevra, path,
				     signer == AUDIT_SIG_UNTRUSTED ?
				     "signed by none of the certificates" :
				     sig->state == FILE_SIG_MALFORMED ?
				     sig->problem :
				     "the package's signature is malformed");
	if (st->measured && signer == AUDIT_SIG_OK) {
		if (st->digest_alg != pkg->alg->id)
			audit_report_problem(&a->rep, AUDIT_DIGEST, pkg->nevra,
					     path, "measured with another hash algorithm");
		else if (audit_sigcache_check(a->sigs, pkg->alg, st->digest) !=
			 AUDIT_SIG_OK)
			audit_report_problem(&a->rep, AUDIT_DIGEST, pkg->nevra,
					     path, NULL);
	}
	if (st->measured)
		check_builtin_sig(a, pkg, path, der, len);
	check_ima(a, pkg, i, fd, path);
	close(fd);
out:
	free(path);
}

static void audit_header(struct audit *a, Header h)
{
	struct audit_pkg pkg;
	char *err = NULL;

	a->rep.packages++;
	if (audit_pkg_load(&pkg, h, a->pool, a->sign_config_files, &err) != 0) {
		report(err);
		a->errors++;
	} else if (!pkg.has_sigs) {
		audit_report_skip(&a->rep, pkg.nevra, pkg.nevra,
				  "the package has no fs-verity signatures");
	} else {
		for (int i = 0; i < pkg.nfiles; i++)
			audit_file(a, &pkg, i);
	}
	audit_pkg_free(&pkg);
}

/* Every installed package, or those @names match; -1 if one matched none. */
static int audit_db(struct audit *a, rpmts ts, const char **names)
{
	rpmdbMatchIterator mi;
	Header h;
	int rc = 0;

	if (!names || !*names) {
		mi = rpmtsInitIterator(ts, RPMDBI_PACKAGES, NULL, 0);
		while ((h = rpmdbNextIterator(mi)))
			audit_header(a, h);
		rpmdbFreeIterator(mi);
		return 0;
	}
	for (; *names; names++) {
		int n = 0;

		mi = rpmtsInitIterator(ts, RPMDBI_LABEL, *names, 0);
		while ((h = rpmdbNextIterator(mi))) {
			audit_header(a, h);
			n++;
		}
		rpmdbFreeIterator(mi);
		if (!n) {
			fprintf(stderr, "rpm-verity audit: package %s is not installed\n",
				*names);
			rc = -1;
		}
	}
	return rc;
}

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

/* Each of @paths checked as --unowned needs it (cert_check.c). */
static int certs_readable(const char **paths)
{
	char *why = NULL;

	for (; *paths; paths++)
		if (audit_cert_file_check(*paths, &why) != 0) {
			fprintf(stderr, "rpm-verity audit: %s\n", why);
			free(why);
			return -1;
		}
	return 0;
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
	struct audit *a = rcalloc(1, sizeof(*a));
	X509 **certs = NULL;
	size_t ncerts = 0;
	rpmts ts = NULL;
	unsigned long rpm_errors = 0;
	int c;

	a->root.fd = a->root.dir_fd = -1;
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
	if (audit_root_open(&a->root, absroot, &err) != 0) {
		report(err);
		goto out;
	}
	certfiles = cert_paths(certpaths, &certlist, &certsplit);
	if (!certfiles || (unowned ? certs_readable(certfiles) != 0 :
			   audit_certs_load(certfiles, &certs, &ncerts) != 0))
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
	a->sign_config_files = rpmExpandNumeric("%{?_fsverity_sign_config_files}");
	a->rep = (struct audit_report){ .out = stdout, .json = json,
					.verbose = verbose };
	rpmlogSetCallback(count_rpm_error, &rpm_errors);
	if (unowned) {
		struct audit_unowned_opts uo = {
			.root = &a->root, .ts = ts, .dbdir = dbdir,
			.certs = certfiles,
			.paths = names, .rep = &a->rep,
		};

		a->errors += audit_unowned(&uo);
		names = NULL;	/* paths, not packages */
		status = 0;
	} else {
		a->sigs = audit_sigcache_new(certs, ncerts);
		a->pool = rpmstrPoolCreate();
		status = audit_db(a, ts, names) == 0 ? 0 : 1;
		rpmstrPoolFree(a->pool);
	}
	rpmlogSetCallback(NULL, NULL);
	if (rpm_errors) {
		fprintf(stderr, "rpm-verity audit: %s: the rpmdb could not be read whole (above)\n",
			dbdir);
		a->errors++;
	}
	if (!a->rep.packages && !(names && *names)) {
		fprintf(stderr, "rpm-verity audit: %s: no package installed in this rpmdb\n",
			dbdir);
		a->errors++;
	}
	if (audit_report_summary(&a->rep))
		status = 1;
	if (verbose && !json && !unowned)
		printf("audit: %lu files skipped, %zu signature checks\n",
		       a->rep.skipped, audit_sigcache_verifications(a->sigs));
	if (a->errors)
		status = 2;
out:
	if (fflush(stdout) != 0 && status == 0)
		status = 2;
	rpmtsFree(ts);
	audit_sigcache_free(a->sigs);
	audit_root_close(&a->root);
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
	free(a);
	poptFreeContext(ctx);
	return status;
}
