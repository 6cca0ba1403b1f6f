// SPDX-License-Identifier: MIT
/*
 * rpm-verity digests: the build side's first step when the key lives
 * elsewhere. Computes each package's identity and every file's fs-verity
 * digest and writes them as a manifest (manifest.h) for sign-digests. No
 * key is needed and nothing secret is written.
 */
#include <popt.h>
#include <pthread.h>
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
#include "worker_pool.h"

/* One package's block, in @out; 0, or -1 with a message in *@err. */
static int digest_package(const char *path, const struct verity_hash_alg *alg,
			  int jobs, struct manifest_package *out, char **err)
{
	struct package pkg;
	rpmfiles fi;
	int rc;

	if (package_open(&pkg, path, err) != 0)
		return -1;
	fi = rpmfilesNew(NULL, pkg.h, RPMTAG_BASENAMES, PACKAGE_FI_FLAGS);
	rc = file_digests_compute(&pkg, fi, alg, jobs, NULL, out, err);
	rpmfilesFree(fi);
	package_close(&pkg);
	return rc;
}

/*
 * Many packages go through in lanes, one per core: each lane takes the
 * next package and runs its whole pipeline, so that one package's
 * decompression, which no pipeline spreads over cores, runs beside
 * another's. On many packages of various sizes (bench/README.md), one
 * package at a time stayed well above the floor of decompressing them all
 * in one stream; in lanes, close to it. The blocks are written in the
 * order given, and no lane runs more than WINDOW packages ahead of the
 * writer.
 */
#define WINDOW	16

struct lanes {
	pthread_mutex_t lock;
	pthread_cond_t changed;
	const char **pkgs;
	unsigned long npkgs, next, written;
	int stop;
	const struct verity_hash_alg *alg;
	int workers;
	struct lane_result {
		int state;	/* 0 not yet, 1 done, -1 failed */
		struct manifest_package m;
		char *err;
	} *res;
};

static void lane_main(void *arg)
{
	struct lanes *l = arg;

	pthread_mutex_lock(&l->lock);
	for (;;) {
		struct lane_result *r;
		unsigned long i;
		int rc;

		while (!l->stop && l->next < l->npkgs &&
		       l->next >= l->written + WINDOW)
			pthread_cond_wait(&l->changed, &l->lock);
		if (l->stop || l->next >= l->npkgs)
			break;
		i = l->next++;
		r = &l->res[i];
		pthread_mutex_unlock(&l->lock);
		rc = digest_package(l->pkgs[i], l->alg, l->workers, &r->m, &r->err);
		pthread_mutex_lock(&l->lock);
		r->state = rc == 0 ? 1 : -1;
		l->stop |= rc != 0;
		pthread_cond_broadcast(&l->changed);
	}
	pthread_mutex_unlock(&l->lock);
}

/* Every package's block to @out in order; 0, or -1 after reporting. */
static int digest_all(const char **pkgs, unsigned long npkgs,
		      const struct verity_hash_alg *alg, int jobs, FILE *out,
		      struct progress *prog, unsigned long *files)
{
	struct lanes l = { .pkgs = pkgs, .npkgs = npkgs, .alg = alg };
	int nlanes = (unsigned long)jobs < npkgs ? jobs : (int)npkgs;
	struct worker_team team;
	int failed = 0;

	l.res = rcalloc(npkgs, sizeof(*l.res));
	l.workers = jobs / nlanes > 1 ? jobs / nlanes : 1;
	pthread_mutex_init(&l.lock, NULL);
	pthread_cond_init(&l.changed, NULL);
	if (worker_pool_run(&team, nlanes, lane_main, &l) == 0) {
		report(rstrscat(NULL, "rpm-verity digests: cannot start threads", NULL));
		failed = 1;
	}
	for (unsigned long i = 0; i < npkgs && !failed; i++) {
		struct lane_result *r = &l.res[i];
		int state;

		pthread_mutex_lock(&l.lock);
		while (r->state == 0 && !(l.stop && i >= l.next))
			pthread_cond_wait(&l.changed, &l.lock);
		state = r->state;
		pthread_mutex_unlock(&l.lock);
		if (state == 0)		/* never taken, after a failure */
			break;
		if (state < 0) {
			report(r->err);
			r->err = NULL;
			failed = 1;
		} else if (manifest_write_package(out, &manifest_format, &r->m) != 0) {
			report(rstrscat(NULL, pkgs[i], ": cannot write the manifest", NULL));
			failed = 1;
		} else {
			*files += r->m.count;
			progress_show(prog, i + 1, *files);
		}
		pthread_mutex_lock(&l.lock);
		l.written = i + 1;
		l.stop |= failed;
		pthread_cond_broadcast(&l.changed);
		pthread_mutex_unlock(&l.lock);
	}
	pthread_mutex_lock(&l.lock);
	l.stop = 1;
	pthread_cond_broadcast(&l.changed);
	pthread_mutex_unlock(&l.lock);
	worker_pool_wait(&team);
	for (unsigned long i = 0; i < npkgs; i++) {
		if (l.res[i].state > 0)
			manifest_package_free(&l.res[i].m);
		free(l.res[i].err);
	}
	pthread_cond_destroy(&l.changed);
	pthread_mutex_destroy(&l.lock);
	free(l.res);
	return failed ? -1 : 0;
}

int cmd_digests(int argc, const char **argv)
{
	char *algoopt = NULL, *outpath = NULL;
	int jobs = 0, rc = 2;
	struct poptOption opts[] = {
		ALGO_OPTION(algoopt),
		JOBS_OPTION(jobs, "hashing"),
		{ "output", 'o', POPT_ARG_STRING, &outpath, 0,
		  "write the manifest to FILE (default: stdout)", "FILE" },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext("rpm-verity digests", argc, argv, opts, 0);
	const struct verity_hash_alg *alg;
	unsigned long npkgs = 0, files = 0;
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
	failed = manifest_write_start(out.f, &manifest_format) != 0 ||
		 digest_all(pkgs, npkgs, alg, jobs, out.f, &prog, &files) != 0;
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
