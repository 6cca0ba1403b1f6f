// SPDX-License-Identifier: MIT
/*
 * rpm-verity sign-digests: the signing side. Reads a manifest (never a
 * package), checks all of it before signing anything, signs every digest
 * with the key (a PEM file or a PKCS#11 token) on worker threads, and
 * writes a signature file for inject. Files with the same digest in one
 * package (hardlinks, empty files, copies) get one signature, as sign
 * gives them. With --ima-key, each signed file also gets its IMA sigv3
 * signature over the same digest, as sign --ima-key makes it.
 */
#include <errno.h>
#include <popt.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/crypto.h>
#include <rpm/rpmstring.h>

#include "cli.h"
#include "ima_sigs.h"
#include "manifest.h"
#include "output_file.h"
#include "progress.h"
#include "sigfile.h"
#include "signing_key.h"
#include "worker_pool.h"

struct work {
	uint32_t pkg, index;
};

struct signer {
	const char *name;	/* the manifest, for messages */
	const struct signing_key *key;
	const struct ima_key *ima;	/* NULL without --ima-key */
	struct manifest_package *pkgs;
	size_t npkgs;
	struct work *work;	/* one per distinct digest of a package */
	size_t nwork;
	atomic_size_t next, done;
	atomic_int failed;
	char *err;		/* why, set by the first worker to fail */
};

/* Keep the first failure's reason, naming the manifest entry. */
static void sign_failed(struct signer *s, const struct manifest_package *p,
			uint32_t index, const char *what, char *why)
{
	char *msg = NULL;

	if (atomic_exchange(&s->failed, 1) == 0) {
		rasprintf(&msg, "%s: package %s: file %u: %s%s", s->name,
			  p->nevra, index, what, why ? why : "out of memory");
		s->err = msg;
	}
	free(why);
}

/*
 * Take digests off the shared counter and sign them until none is left. The
 * caller's thread signs too, and it alone shows progress (@prog, NULL on
 * the pool's threads), so the line is redrawn without a timer of its own.
 */
static void sign_some(struct signer *s, struct progress *prog)
{
	size_t i;

	while ((i = atomic_fetch_add(&s->next, 1)) < s->nwork && !s->failed) {
		struct manifest_package *p = &s->pkgs[s->work[i].pkg];
		uint32_t index = s->work[i].index;
		uint8_t *der = NULL;
		char *why = NULL;
		int len = signing_key_sign(s->key, p->alg,
					   manifest_digest(p, index), &der,
					   &why);

		if (len < 0 || !(p->sigs[index] = sigfile_encode(der, (size_t)len)))
			sign_failed(s, p, index, "", why);
		else if (s->ima &&
			 !(p->ima[index] = ima_sign_hex(s->ima->key, s->ima->keyid,
							p->alg, manifest_digest(p, index),
							&why)))
			sign_failed(s, p, index, "IMA signature: ", why);
		OPENSSL_free(der);
		atomic_fetch_add(&s->done, 1);
		/* packages are not signed in order; show the signatures made */
		if (prog)
			progress_show(prog, 0, atomic_load(&s->done));
	}
}

static void sign_worker(void *arg)
{
	sign_some(arg, NULL);
}

static const struct manifest_package *sort_pkg;

static int by_digest(const void *a, const void *b)
{
	return memcmp(manifest_digest(sort_pkg, *(const uint32_t *)a),
		      manifest_digest(sort_pkg, *(const uint32_t *)b),
		      sort_pkg->alg->digest_size);
}

/*
 * Queue each distinct digest of @p once; *@dups gets, per file, the file
 * whose signature it shares (or itself).
 */
static void plan_package(struct signer *s, uint32_t pi, uint32_t **dups)
{
	struct manifest_package *p = &s->pkgs[pi];
	uint32_t *order = rmalloc((p->count ? p->count : 1) * sizeof(*order));
	uint32_t n = 0;

	*dups = rmalloc((p->count ? p->count : 1) * sizeof(**dups));
	for (uint32_t i = 0; i < p->count; i++) {
		(*dups)[i] = i;
		if (p->present[i])
			order[n++] = i;
	}
	sort_pkg = p;
	qsort(order, n, sizeof(*order), by_digest);
	for (uint32_t k = 0; k < n; k++) {
		if (k > 0 && by_digest(&order[k - 1], &order[k]) == 0) {
			(*dups)[order[k]] = (*dups)[order[k - 1]];
			continue;
		}
		s->work[s->nwork++] = (struct work){ pi, order[k] };
	}
	free(order);
}

/* Read and check the whole manifest: 0, or -1 after reporting. */
static int read_manifest(FILE *in, const char *name, struct signer *s,
			 size_t *files)
{
	struct manifest_reader r;
	struct manifest_package p;
	size_t cap = 0;
	char *err = NULL;
	int rc;

	manifest_reader_init(&r, &manifest_format, in, name);
	while ((rc = manifest_read_package(&r, &p, &err)) > 0) {
		if (s->npkgs == cap) {
			cap = cap ? cap * 2 : 64;
			s->pkgs = rrealloc(s->pkgs, cap * sizeof(*s->pkgs));
		}
		p.sigs = rcalloc(p.count ? p.count : 1, sizeof(*p.sigs));
		if (s->ima)
			p.ima = rcalloc(p.count ? p.count : 1, sizeof(*p.ima));
		s->pkgs[s->npkgs++] = p;
		*files += p.count;
	}
	manifest_reader_free(&r);
	if (rc < 0)
		report(err);
	return rc < 0 ? -1 : 0;
}

static int sign_all(struct signer *s, int jobs, size_t files)
{
	struct progress prog;
	uint32_t **dups = rcalloc(s->npkgs ? s->npkgs : 1, sizeof(*dups));
	struct worker_team team;
	int rc = -1;

	s->work = rmalloc((files ? files : 1) * sizeof(*s->work));
	for (size_t i = 0; i < s->npkgs; i++)
		plan_package(s, (uint32_t)i, &dups[i]);
	progress_init(&prog, "sign-digests:", s->npkgs);
	/* @jobs signers in all: this thread and @jobs - 1 of the pool's */
	worker_pool_run(&team, jobs - 1, sign_worker, s);
	sign_some(s, &prog);
	worker_pool_wait(&team);
	progress_end(&prog);
	if (s->failed)
		goto out;
	for (size_t i = 0; i < s->npkgs; i++) {
		struct manifest_package *p = &s->pkgs[i];

		for (uint32_t f = 0; f < p->count; f++) {
			if (!p->present[f] || dups[i][f] == f)
				continue;
			p->sigs[f] = rstrdup(p->sigs[dups[i][f]]);
			if (p->ima)
				p->ima[f] = rstrdup(p->ima[dups[i][f]]);
		}
	}
	rc = 0;
out:
	for (size_t i = 0; i < s->npkgs; i++)
		free(dups[i]);
	free(dups);
	return rc;
}

int cmd_sign_digests(int argc, const char **argv)
{
	char *outpath = NULL;
	int jobs = 0, rc = 2;
	struct poptOption opts[] = {
		KEY_OPTIONS,
		IMA_OPTIONS,
		JOBS_OPTION(jobs, "signing"),
		{ "output", 'o', POPT_ARG_STRING, &outpath, 0,
		  "write the signatures to FILE (default: stdout)", "FILE" },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext("rpm-verity sign-digests", argc, argv,
					 opts, 0);
	struct signer s = { 0 };
	struct signing_key *key = NULL;
	struct ima_key imakey = { 0 };
	struct output_file out = { 0 };
	const char **args, *name = "stdin";
	char keytype[64], imatype[64];
	int with_ima = 0;
	size_t files = 0, sigs = 0;
	FILE *in = stdin;
	int ok;

	poptSetOtherOptionHelp(ctx, "[OPTIONS] [MANIFEST]");
	if (parse_options(ctx, "sign-digests", &jobs) != 0)
		goto out;
	args = poptGetArgs(ctx);
	if (args && args[0] && args[1]) {
		fprintf(stderr, "rpm-verity sign-digests: one manifest at most\n");
		goto out;
	}
	rc = 1;
	if (args && strcmp(args[0], "-") != 0) {
		name = args[0];
		in = fopen(name, "r");
		if (!in) {
			report(rstrscat(NULL, name, ": cannot open: ",
					strerror(errno), NULL));
			goto out;
		}
	}
	/* The keys first: a wrong PIN is found before a long read. */
	if (!(key = load_key_options()) ||
	    (with_ima = load_ima_options(&imakey)) < 0)
		goto out;
	s.name = name;
	s.key = key;
	s.ima = with_ima ? &imakey : NULL;
	if (read_manifest(in, name, &s, &files) != 0)
		goto out;
	if (sign_all(&s, jobs, files) != 0) {
		report(s.err);
		s.err = NULL;
		goto out;
	}
	if (output_open(&out, outpath) != 0)
		goto out;
	ok = manifest_write_start(out.f, &sigfile_format) == 0;
	for (size_t i = 0; ok && i < s.npkgs; i++) {
		ok = manifest_write_package(out.f, &sigfile_format, &s.pkgs[i]) == 0;
		for (uint32_t f = 0; f < s.pkgs[i].count; f++)
			sigs += s.pkgs[i].present[f];
	}
	ok = ok && manifest_write_end(out.f, &sigfile_format, s.npkgs) == 0;
	if (output_close(&out, ok) != 0)
		goto out;
	fprintf(stderr, "rpm-verity sign-digests: signed %zu packages, %zu of %zu files (%zu signatures made), %s, with %s key %s\n",
		s.npkgs, sigs, files, s.nwork,
		s.npkgs && s.pkgs[0].alg ? s.pkgs[0].alg->name : "sha256",
		signing_key_type(key, keytype, sizeof(keytype)),
		signing_key_name(key));
	if (s.ima)
		fprintf(stderr, "rpm-verity sign-digests: and IMA sigv3 signatures of the same files, with %s key %s (key id %08x)\n",
			signing_key_type(imakey.key, imatype, sizeof(imatype)),
			signing_key_name(imakey.key), imakey.keyid);
	rc = 0;
out:
	if (in && in != stdin)
		fclose(in);
	for (size_t i = 0; i < s.npkgs; i++)
		manifest_package_free(&s.pkgs[i]);
	free(s.pkgs);
	free(s.work);
	signing_key_free(key);
	ima_key_free(&imakey);
	free_key_options();
	free_ima_options();
	free(outpath);
	poptFreeContext(ctx);
	return rc;
}
