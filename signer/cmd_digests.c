// SPDX-License-Identifier: MIT
/*
 * rpm-verity digests: the build side's first step when the key lives
 * elsewhere. Computes each package's identity and every file's fs-verity
 * digest and writes them as a manifest (manifest.h) for sign-digests. No
 * key is needed and nothing secret is written.
 */
#include <popt.h>
#include <stdio.h>
#include <stdlib.h>
#include <rpm/rpmfi.h>
#include <rpm/rpmstring.h>
#include <rpm/rpmtag.h>

#include "cli.h"
#include "file_digests.h"
#include "manifest.h"
#include "output_file.h"
#include "package.h"
#include "progress.h"

/* One package's block; 0, or -1 after reporting. */
static int digest_package(const char *path, const struct verity_hash_alg *alg,
			  int jobs, FILE *out, unsigned long *files)
{
	struct manifest_package digests;
	struct package pkg;
	rpmfiles fi;
	char *err = NULL;
	int rc = -1;

	if (package_open(&pkg, path, &err) != 0) {
		report(err);
		return -1;
	}
	fi = rpmfilesNew(NULL, pkg.h, RPMTAG_BASENAMES, PACKAGE_FI_FLAGS);
	if (file_digests_compute(&pkg, fi, alg, jobs, NULL, &digests, &err) == 0) {
		if (manifest_write_package(out, &manifest_format, &digests) == 0) {
			*files += digests.count;
			rc = 0;
		} else {
			rasprintf(&err, "%s: cannot write the manifest", path);
		}
		manifest_package_free(&digests);
	}
	if (err)
		report(err);
	rpmfilesFree(fi);
	package_close(&pkg);
	return rc;
}

int cmd_digests(int argc, const char **argv)
{
	char *algoopt = NULL, *outpath = NULL;
	int jobs = 0, rc = 2;
	struct poptOption opts[] = {
		{ "algo", 'a', POPT_ARG_STRING, &algoopt, 0,
		  "sha256 or sha512 (default: %_verity_algorithm, else sha256)",
		  "ALGO" },
		{ "jobs", 'j', POPT_ARG_INT, &jobs, 0,
		  "hashing threads (default: all CPUs)", "N" },
		{ "output", 'o', POPT_ARG_STRING, &outpath, 0,
		  "write the manifest to FILE (default: stdout)", "FILE" },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext("rpm-verity digests", argc, argv, opts, 0);
	const struct verity_hash_alg *alg;
	unsigned long npkgs = 0, done = 0, files = 0;
	struct output_file out;
	struct progress prog;
	const char **pkgs;
	int failed = 0;

	poptSetOtherOptionHelp(ctx, "[OPTIONS] PACKAGE.rpm...");
	pkgs = parse_command_line(ctx, "digests", &jobs);
	if (!pkgs)
		goto out;
	rc = 1;
	alg = alg_option(algoopt);
	if (!alg || output_open(&out, outpath) != 0)
		goto out;
	while (pkgs[npkgs])
		npkgs++;
	progress_init(&prog, "digests:", npkgs);
	failed = manifest_write_start(out.f, &manifest_format) != 0;
	for (; *pkgs && !failed; pkgs++) {
		failed |= digest_package(*pkgs, alg, jobs, out.f, &files) != 0;
		progress_show(&prog, ++done, files);
	}
	/* No end line after a failure: a reader sees the manifest is incomplete. */
	if (!failed)
		failed = manifest_write_end(out.f, &manifest_format, npkgs) != 0;
	progress_end(&prog);
	if (output_close(&out, !failed) != 0)
		failed = 1;
	if (!failed)
		fprintf(stderr, "rpm-verity digests: %lu packages, %lu files (%s)%s%s\n",
			npkgs, files, alg->name, outpath ? " -> " : "",
			outpath ? outpath : "");
	rc = failed;
out:
	free(algoopt);
	free(outpath);
	poptFreeContext(ctx);
	return rc;
}
