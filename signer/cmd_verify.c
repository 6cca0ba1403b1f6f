// SPDX-License-Identifier: MIT
/*
 * rpm-verity verify: check a package's fs-verity signatures offline, the
 * way the kernel will at install time: recompute each file's digest from
 * the payload and check its signature against the certificate. One line
 * per problem; exit status 1 when there is any.
 *
 * Entries for directories, symlinks and %ghost files are not judged: rpm
 * does not enable verity on them, and rpmsign fills them with the empty
 * file's signature, which must not fail packages it signed.
 *
 * With --ima-cert, the IMA sigv3 signatures are checked against the same
 * digests (ima_verify.c).
 */
#include <popt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rpm/rpmbase64.h>
#include <rpm/rpmmacro.h>
#include <rpm/rpmfi.h>
#include <rpm/rpmstring.h>
#include <rpm/rpmtag.h>
#include <rpm/rpmtd.h>

#include "cli.h"
#include "file_digests.h"
#include "file_msg.h"
#include "file_rule.h"
#include "ima_tags.h"
#include "ima_verify.h"
#include "package.h"
#include "payload_digests.h"
#include "signing_key.h"
#include "verity_format.h"

struct verify_job {
	const struct package *pkg;
	rpmfiles files;
	X509 *cert;
	const struct verity_hash_alg *alg;
	const char **entries;	/* base64 per header file */
	char **problems;	/* NULL where the file is fine */
	unsigned char *have;	/* digest computed from the payload */
	uint8_t *digests;	/* VERITY_MAX_DIGEST_SIZE per file */
};

static char *check_entry(const struct verify_job *job, int index,
			 const uint8_t *digest)
{
	const char *b64 = job->entries[index];
	void *der = NULL;
	size_t len = 0;
	char *why = NULL, *msg;

	if (!*b64)
		return rstrdup("no signature");
	if (rpmBase64Decode(b64, &der, &len) != 0 || len == 0) {
		free(der);
		return rstrdup("signature entry is not valid base64");
	}
	if (verify_signature(job->cert, job->alg, digest, der, len, &why) == 0)
		why = NULL;
	free(der);
	if (!why)
		return NULL;
	msg = rstrdup(why);
	free(why);
	return msg;
}

/* Runs on the digest workers. */
static int verify_file(void *ctx, int index, const uint8_t *digest, char **err)
{
	struct verify_job *job = ctx;

	(void)err;
	memcpy(job->digests + (size_t)index * VERITY_MAX_DIGEST_SIZE, digest,
	       job->alg->digest_size);
	job->have[index] = 1;
	if (verity_files_signed(job->files, index))
		job->problems[index] = check_entry(job, index, digest);
	return 0;
}

/*
 * Files the payload pass did not visit: hardlink members, empty files. Their
 * digests are recorded too, for the IMA check.
 */
static void check_rest(struct verify_job *job, int count)
{
	uint8_t empty[VERITY_MAX_DIGEST_SIZE];
	int have_empty = empty_file_digest(job->alg, empty) == 0;

	for (int i = 0; i < count; i++) {
		int src;

		if (job->have[i] || !verity_files_signed(job->files, i))
			continue;
		if ((src = hardlink_source(job->files, i, job->have)) >= 0)
			memcpy(job->digests + (size_t)i * VERITY_MAX_DIGEST_SIZE,
			       job->digests + (size_t)src * VERITY_MAX_DIGEST_SIZE,
			       VERITY_MAX_DIGEST_SIZE);
		else if (rpmfilesFSize(job->files, i) == 0 && have_empty)
			memcpy(job->digests + (size_t)i * VERITY_MAX_DIGEST_SIZE,
			       empty, VERITY_MAX_DIGEST_SIZE);
		else {
			job->problems[i] = rstrdup("content missing from the payload");
			continue;
		}
		job->have[i] = 1;
		job->problems[i] = check_entry(job, i, job->digests +
					       (size_t)i * VERITY_MAX_DIGEST_SIZE);
	}
}

static int verify_package(const char *path, X509 *cert, X509 *imacert,
			  const char *imacertpath, int jobs)
{
	struct package pkg;
	struct verify_job job = { .pkg = &pkg, .cert = cert };
	struct rpmtd_s sigs, algo;
	char *err = NULL;
	int count = 0, bad = 0;

	rpmtdReset(&sigs);
	rpmtdReset(&algo);
	if (package_open(&pkg, path, &err) != 0) {
		report(err);
		return -1;
	}
	job.files = rpmfilesNew(NULL, pkg.h, RPMTAG_BASENAMES, PACKAGE_FI_FLAGS);
	count = rpmfilesFC(job.files);
	if (!headerGet(pkg.sigh, VERITY_TAG_SIGNATURES, &sigs, HEADERGET_MINMEM)) {
		rasprintf(&err, "%s: no fs-verity signatures", path);
		goto out;
	}
	if (headerGet(pkg.sigh, VERITY_TAG_ALGO, &algo, HEADERGET_MINMEM))
		job.alg = verity_hash_alg_by_id(*rpmtdGetUint32(&algo));
	else
		job.alg = verity_hash_alg_by_id(1);	/* rpm's default */
	if (!job.alg) {
		rasprintf(&err, "%s: unknown fs-verity hash algorithm %u", path,
			  *rpmtdGetUint32(&algo));
		goto out;
	}
	if (rpmtdCount(&sigs) != (rpm_count_t)count) {
		rasprintf(&err, "%s: %u fs-verity signatures for %d files",
			  path, rpmtdCount(&sigs), count);
		goto out;
	}
	job.entries = sigs.data;
	job.problems = rcalloc((size_t)count, sizeof(*job.problems));
	job.have = rcalloc((size_t)count, 1);
	job.digests = rcalloc((size_t)count, VERITY_MAX_DIGEST_SIZE);
	if (package_check_header(&pkg, NULL, &err) != 0 ||
	    payload_digests(&pkg, job.files, job.alg, jobs, verify_file, &job,
			    &err) != 0)
		goto out;
	check_rest(&job, count);
	for (int i = 0; i < count; i++) {
		char *msg;

		if (!job.problems[i])
			continue;
		msg = file_msg(path, job.files, i, "%s", job.problems[i]);
		puts(msg);
		free(msg);
		bad++;
	}
	if (!bad)
		printf("%s: %d files, fs-verity signatures OK (%s)\n", path,
		       count, job.alg->name);
	if (imacert) {
		int n = ima_verify_package(&pkg, job.files, imacert, imacertpath,
					   job.alg, job.digests, job.have, &err);

		bad += n > 0 ? n : 0;
	} else if (ima_tags_present(pkg.sigh)) {
		printf("%s: IMA signatures not checked (give --ima-cert)\n", path);
	}
out:
	if (err) {
		report(err);
		bad++;
	}
	for (int i = 0; job.problems && i < count; i++)
		free(job.problems[i]);
	free(job.problems);
	free(job.have);
	free(job.digests);
	rpmtdFreeData(&sigs);
	rpmtdFreeData(&algo);
	rpmfilesFree(job.files);
	package_close(&pkg);
	return bad ? -1 : 0;
}

int cmd_verify(int argc, const char **argv)
{
	char *certpath = NULL, *imacertpath = NULL;
	int jobs = 0, failed = 0;
	struct poptOption opts[] = {
		{ "cert", 'c', POPT_ARG_STRING, &certpath, 0,
		  "X.509 certificate, PEM or DER (default: %_file_signing_cert)",
		  "CERT" },
		{ "ima-cert", 0, POPT_ARG_STRING, &imacertpath, 0,
		  "also check IMA sigv3 signatures against this certificate",
		  "CERT" },
		{ "jobs", 'j', POPT_ARG_INT, &jobs, 0,
		  "hashing threads (default: all CPUs)", "N" },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext("rpm-verity verify", argc, argv, opts, 0);
	const char **pkgs;
	char *err = NULL, *path = NULL;
	X509 *cert = NULL, *imacert = NULL;

	poptSetOtherOptionHelp(ctx, "--cert CERT [--ima-cert CERT] PACKAGE.rpm...");
	pkgs = parse_command_line(ctx, "verify", &jobs);
	if (!pkgs) {
		poptFreeContext(ctx);
		free(certpath);
		free(imacertpath);
		return 2;
	}
	path = certpath ? rstrdup(certpath) :
			  rpmExpand("%{?_file_signing_cert}", NULL);
	if (!*path) {
		report(rstrdup("no certificate: give --cert or set %_file_signing_cert"));
		failed = 1;
	} else if (!(cert = load_certificate(path, &err))) {
		report(err);
		failed = 1;
	} else if (imacertpath && !(imacert = load_certificate(imacertpath, &err))) {
		report(err);
		failed = 1;
	}
	for (int ready = !failed; ready && *pkgs; pkgs++)
		failed |= verify_package(*pkgs, cert, imacert, imacertpath,
					 jobs) != 0;
	X509_free(cert);
	X509_free(imacert);
	free(certpath);
	free(imacertpath);
	free(path);
	poptFreeContext(ctx);
	return failed;
}
