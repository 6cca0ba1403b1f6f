// SPDX-License-Identifier: MIT
/*
 * rpm-verity sign: compute every file's fs-verity digest from the payload,
 * sign it, and store the signatures in the signature header in rpm 4.18's
 * format (tags 276/277), so rpm's own plugin and ours both read them.
 *
 * Unlike rpmsign --signverity, every member of a hardlink set and every
 * empty regular file gets the signature of its real content; directories,
 * symlinks and %ghost files get an empty entry (rpm reports "no signature").
 * With --ima-key, each signed file also gets an IMA sigv3 signature made
 * from the same digest (ima_sigs.c).
 */
#include <errno.h>
#include <limits.h>
#include <popt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <openssl/crypto.h>
#include <rpm/rpmbase64.h>
#include <rpm/rpmfi.h>
#include <rpm/rpmmacro.h>
#include <rpm/rpmstring.h>
#include <rpm/rpmtag.h>

#include "cli.h"
#include "file_digests.h"
#include "file_msg.h"
#include "ima_sigs.h"
#include "ima_tags.h"
#include "package.h"
#include "signed_write.h"
#include "signing_key.h"
#include "verity_format.h"

/*
 * sign is the split flow's three stages in one process: the digest source
 * (file_digests.c) hands each digest to the signing key as the workers
 * compute it, and the package writer (signed_write.c) stores the result.
 */
struct sign_job {
	const struct package *pkg;
	rpmfiles files;
	const struct signing_key *key;
	const struct verity_hash_alg *alg;
	char **sigs;		/* tag 276 entry per header file */
	struct ima_sigs *ima;	/* NULL without --ima-key */
};

/* Runs on the digest workers: signing overlaps decompression and hashing. */
static int sign_file(void *ctx, int index, const uint8_t *digest, char **err)
{
	struct sign_job *job = ctx;
	uint8_t *der = NULL;
	char *why = NULL;
	int len = signing_key_sign(job->key, job->alg, digest, &der, &why);

	if (len < 0) {
		*err = file_msg(job->pkg->path, job->files, index, "%s", why);
		free(why);
		return -1;
	}
	job->sigs[index] = verity_tag_entry(der, (size_t)len);
	OPENSSL_free(der);
	if (job->ima &&
	    ima_sigs_sign(job->ima, (uint32_t)index, digest, &why) != 0) {
		*err = file_msg(job->pkg->path, job->files, index,
				"IMA signature: %s", why);
		free(why);
		return -1;
	}
	return 0;
}

/* Same content, same signature: hardlink members and empty files. */
static int copy_signature(void *ctx, int index, int src, char **err)
{
	struct sign_job *job = ctx;

	(void)err;
	job->sigs[index] = rstrdup(job->sigs[src]);
	if (job->ima)
		ima_sigs_copy(job->ima, (uint32_t)index, (uint32_t)src);
	return 0;
}

static int sign_package(const char *path, const char *dest,
			const struct signing_key *key,
			const struct verity_hash_alg *alg,
			const struct ima_key *imakey, int jobs)
{
	struct package pkg;
	struct sign_job job = { .pkg = &pkg, .key = key, .alg = alg };
	struct ima_sigs ima = { 0 };
	struct digest_sink sink = {
		.digest = sign_file, .copy = copy_signature, .ctx = &job,
	};
	struct manifest_package digests = { 0 };
	uint32_t count = 0, nsigned = 0;
	char *err = NULL;
	int rc = -1;

	if (package_open(&pkg, path, &err) != 0) {
		report(err);
		return -1;
	}
	job.files = rpmfilesNew(NULL, pkg.h, RPMTAG_BASENAMES,
				PACKAGE_FI_FLAGS);
	count = (uint32_t)rpmfilesFC(job.files);
	if (count == 0) {
		printf("%s: no files, nothing to sign\n", path);
		rc = 0;
		goto out;
	}
	job.sigs = rcalloc(count, sizeof(*job.sigs));
	if (imakey) {
		ima_sigs_init(&ima, imakey, alg, count);
		job.ima = &ima;
	}
	if (file_digests_compute(&pkg, job.files, alg, jobs, &sink, &digests,
				 &err) != 0)
		goto out;
	/* what was signed is counted; the rest gets an empty entry */
	for (uint32_t i = 0; i < count; i++) {
		if (job.sigs[i])
			nsigned++;
		else
			job.sigs[i] = rstrdup("");
	}
	if (ima_tags_store(&pkg, job.ima, &err) < 0 ||
	    write_signed_package(&pkg, job.sigs, count, alg, dest, NULL,
				 &err) != 0)
		goto out;
	printf("%s: signed %u files (%s%s)\n", dest, nsigned, alg->name,
	       job.ima ? ", with IMA signatures" : "");
	rc = 0;
out:
	if (err)
		report(err);
	for (uint32_t i = 0; job.sigs && i < count; i++)
		free(job.sigs[i]);
	free(job.sigs);
	ima_sigs_free(&ima);
	manifest_package_free(&digests);
	rpmfilesFree(job.files);
	package_close(&pkg);
	return rc;
}

int cmd_sign(int argc, const char **argv)
{
	char *algoopt = NULL, *outdir = NULL;
	int jobs = 0, failed = 0, rc = 2;
	struct poptOption opts[] = {
		KEY_OPTIONS,
		IMA_OPTIONS,
		ALGO_OPTION(algoopt),
		JOBS_OPTION(jobs, "hashing and signing"),
		{ "output-dir", 'o', POPT_ARG_STRING, &outdir, 0,
		  "write signed packages to DIR instead of in place", "DIR" },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext("rpm-verity sign", argc, argv, opts, 0);
	struct signing_key *key = NULL;
	struct ima_key imakey = { 0 };
	const struct verity_hash_alg *alg;
	int with_ima = 0;
	const char **pkgs;

	poptSetOtherOptionHelp(ctx, "[OPTIONS] PACKAGE.rpm...");
	pkgs = parse_command_line(ctx, "sign", &jobs);
	if (!pkgs)
		goto out;

	rc = 1;
	alg = alg_option(algoopt);
	if (!alg || (outdir && !is_writable_dir(outdir)) ||
	    !(key = load_key_options()) ||
	    (with_ima = load_ima_options(&imakey)) < 0)
		goto out;
	for (; *pkgs; pkgs++) {
		char *dest = output_path(outdir, *pkgs);

		failed |= sign_package(*pkgs, dest, key, alg,
				       with_ima ? &imakey : NULL, jobs) != 0;
		free(dest);
	}
	rc = failed;
out:
	signing_key_free(key);
	ima_key_free(&imakey);
	free_key_options();
	free_ima_options();
	free(algoopt);
	free(outdir);
	poptFreeContext(ctx);
	return rc;
}
