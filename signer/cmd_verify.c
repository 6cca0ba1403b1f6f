// SPDX-License-Identifier: MIT
/*
 * rpm-verity verify: check a package's fs-verity (and, with --ima-cert,
 * IMA sigv3) signatures offline, as package_verify.h does it, and print
 * one line per problem; exit status 1 when there is any. With --list,
 * print which files the rule signs and the plugin protects instead, for
 * scripts that would otherwise copy the rule (the distribution's build).
 *
 * Entries for directories, symlinks and %ghost files are not judged: rpm
 * does not enable verity on them, and rpmsign fills them with the empty
 * file's signature, which must not fail packages it signed.
 */
#include <popt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <rpm/rpmfi.h>
#include <rpm/rpmmacro.h>
#include <rpm/rpmstring.h>
#include <rpm/rpmtag.h>

#include "cli.h"
#include "file_msg.h"
#include "ima_sigs.h"
#include "package.h"
#include "package_verify.h"
#include "signing_key.h"

static void print_problems(const char *path, rpmfiles files,
			   const struct verify_result *r,
			   enum verify_kind kind)
{
	for (size_t i = 0; i < r->nproblems; i++) {
		const struct verify_problem *p = &r->problems[i];
		char *msg;

		if (p->kind != kind)
			continue;
		if (p->file == VERIFY_PACKAGE)
			rasprintf(&msg, "%s: %s", path, p->why);
		else
			msg = file_msg(path, files, p->file, "%s", p->why);
		puts(msg);
		free(msg);
	}
}

static size_t count_kind(const struct verify_result *r, enum verify_kind kind)
{
	size_t n = 0;

	for (size_t i = 0; i < r->nproblems; i++)
		n += r->problems[i].kind == kind;
	return n;
}

static int verify_one(const struct package *pkg, rpmfiles files,
		      const struct verify_certs *certs, int jobs)
{
	struct verify_result r;
	char *err = NULL;
	bool bad;

	if (package_verify(pkg, files, certs, jobs, &r, &err) != 0) {
		report(err);
		return -1;
	}
	print_problems(pkg->path, files, &r, VERIFY_VERITY);
	if (!count_kind(&r, VERIFY_VERITY))
		printf("%s: %d files, fs-verity signatures OK (%s)\n",
		       pkg->path, r.nfiles, r.alg->name);
	if (certs->ima) {
		print_problems(pkg->path, files, &r, VERIFY_IMA);
		if (!count_kind(&r, VERIFY_IMA))
			printf("%s: %d files, IMA signatures OK (sigv3, %s, key id %08x)\n",
			       pkg->path, r.nfiles, r.alg->name,
			       certs->ima_keyid);
	} else if (r.ima_present) {
		printf("%s: IMA signatures not checked (give --ima-cert)\n",
		       pkg->path);
	}
	bad = r.nproblems != 0;
	verify_result_free(&r);
	return bad ? -1 : 0;
}

static const char *entry_word(enum file_sig_state s)
{
	return s == FILE_SIG_OK ? "signature" :
	       s == FILE_SIG_NONE ? "no-signature" : "malformed-signature";
}

/* --list: PATH, signed, protected and the entry, tab-separated. */
static int list_one(const struct package *pkg, rpmfiles files)
{
	struct file_listing *l;
	char *problem;
	int rc = package_list_files(pkg, files, &l, &problem);

	if (rc < 0) {
		report(rstrdup("out of memory"));
		return -1;
	}
	for (int i = 0; i < (int)rpmfilesFC(files); i++) {
		char *fn = rpmfilesFN(files, i);

		printf("%s\t%s\t%s\t%s\n", fn,
		       l[i].is_signed ? "signed" : "unsigned",
		       l[i].is_protected ? "protected" : "unprotected",
		       entry_word(l[i].entry));
		free(fn);
	}
	free(l);
	if (problem) {
		char *msg;

		rasprintf(&msg, "%s: %s", pkg->path, problem);
		report(msg);
		free(problem);
	}
	return rc ? -1 : 0;
}

static int run_one(const char *path, const struct verify_certs *certs,
		   int jobs)
{
	struct package pkg;
	rpmfiles files;
	char *err = NULL;
	int rc;

	if (package_open(&pkg, path, &err) != 0) {
		report(err);
		return -1;
	}
	files = rpmfilesNew(NULL, pkg.h, RPMTAG_BASENAMES, PACKAGE_FI_FLAGS);
	rc = certs ? verify_one(&pkg, files, certs, jobs) :
		     list_one(&pkg, files);
	rpmfilesFree(files);
	package_close(&pkg);
	return rc;
}

/* The certificates of @certpath (or %_file_signing_cert) and @imacertpath. */
static int load_certs(const char *certpath, const char *imacertpath,
		      struct verify_certs *c)
{
	char *path = certpath ? rstrdup(certpath) :
				rpmExpand("%{?_file_signing_cert}", NULL);
	char *err = NULL;
	int rc = -1;

	if (!*path)
		report(rstrdup("no certificate: give --cert or set %_file_signing_cert"));
	else if (!(c->verity = load_certificate(path, &err)))
		report(err);
	else if (imacertpath &&
		 (!(c->ima = load_certificate(imacertpath, &err)) ||
		  ima_keyid_of_cert(c->ima, imacertpath, &c->ima_keyid,
				    &err) != 0))
		report(err);
	else
		rc = 0;
	free(path);
	return rc;
}

int cmd_verify(int argc, const char **argv)
{
	char *certpath = NULL, *imacertpath = NULL;
	int jobs = 0, list = 0, failed = 0;
	struct poptOption opts[] = {
		{ "cert", 'c', POPT_ARG_STRING, &certpath, 0,
		  "X.509 certificate, PEM or DER (default: %_file_signing_cert)",
		  "CERT" },
		{ "ima-cert", 0, POPT_ARG_STRING, &imacertpath, 0,
		  "also check IMA sigv3 signatures against this certificate",
		  "CERT" },
		JOBS_OPTION(jobs, "hashing"),
		{ "list", 'l', POPT_ARG_NONE, &list, 0,
		  "list each file: signed, protected, its signature entry; "
		  "verify nothing", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext("rpm-verity verify", argc, argv, opts, 0);
	struct verify_certs certs = { 0 };
	const char **pkgs;

	poptSetOtherOptionHelp(ctx,
		"--cert CERT [--ima-cert CERT] PACKAGE.rpm...\n"
		"       verify --list PACKAGE.rpm...");
	pkgs = parse_command_line(ctx, "verify", &jobs);
	if (pkgs && list && (certpath || imacertpath)) {
		report(rstrdup("verify: --list verifies nothing; give it no certificate"));
		pkgs = NULL;
	}
	if (!pkgs) {
		poptFreeContext(ctx);
		free(certpath);
		free(imacertpath);
		return 2;
	}
	if (!list && load_certs(certpath, imacertpath, &certs) != 0)
		failed = 1;
	for (int ready = !failed; ready && *pkgs; pkgs++)
		failed |= run_one(*pkgs, list ? NULL : &certs, jobs) != 0;
	X509_free(certs.verity);
	X509_free(certs.ima);
	free(certpath);
	free(imacertpath);
	poptFreeContext(ctx);
	return failed;
}
