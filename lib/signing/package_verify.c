// SPDX-License-Identifier: MIT
/*
 * See package_verify.h. Signatures are checked as their digests come: on
 * the digest workers for content in the payload, on the caller's thread
 * for the files file_digests.c completes (hardlink members, empty files).
 * Each file's finding has its own slot, so the workers share nothing.
 */
#include "package_verify.h"

#include <stdlib.h>
#include <string.h>
#include <rpm/rpmstring.h>

#include "file_digests.h"
#include "file_rule.h"
#include "ima_verify.h"
#include "signing_key.h"

struct verify_run {
	rpmfiles files;
	X509 *cert;
	struct package_sigs *sigs;
	char **why;		/* per file; NULL where it is fine */
	struct manifest_package digests;	/* filled by file_digests.c */
};

/* NULL if file @i's fs-verity entry is a valid signature over @digest. */
static char *check_file(const struct verify_run *v, int i,
			const uint8_t *digest)
{
	const struct file_sig *f = &v->sigs->verity.files[i];
	char *why = NULL;

	if (f->state == FILE_SIG_NONE)
		return rstrdup("no signature");
	if (f->state == FILE_SIG_MALFORMED)
		return rstrdup(f->problem);
	if (verify_signature(v->cert, v->sigs->alg, digest, f->bytes, f->len,
			     &why) == 0)
		return NULL;
	return why ? why : rstrdup("signature does not verify");
}

static int on_digest(void *ctx, int index, const uint8_t *digest, char **err)
{
	struct verify_run *v = ctx;

	(void)err;
	if (verity_files_signed(v->files, index))
		v->why[index] = check_file(v, index, digest);
	return 0;
}

/* A hardlink member or a further empty file: its digest is in place. */
static int on_copy(void *ctx, int index, int src, char **err)
{
	struct verify_run *v = ctx;

	(void)src;
	(void)err;
	if (verity_files_signed(v->files, index))
		v->why[index] = check_file(v, index,
					   manifest_digest(&v->digests,
							   (uint32_t)index));
	return 0;
}

static int add_problem(struct verify_result *r, enum verify_kind kind,
		       int file, char *why)
{
	struct verify_problem *p;

	if (!why)
		return -1;
	p = realloc(r->problems, (r->nproblems + 1) * sizeof(*p));
	if (!p) {
		free(why);
		return -1;
	}
	r->problems = p;
	p[r->nproblems++] = (struct verify_problem){ kind, file, why };
	return 0;
}

static int add_ima_problem(void *ctx, int file, char *why)
{
	return add_problem(ctx, VERIFY_IMA, file, why);
}

/* The decoded tags, or NULL with *@err saying why they cannot be used. */
static struct package_sigs *usable_sigs(const struct package *pkg, int nfiles,
					char **err)
{
	struct package_sigs *sigs = package_sigs_decode(pkg->sigh,
							PACKAGE_SIGS_SIGHEADER,
							(size_t)nfiles);

	if (!sigs)
		rasprintf(err, "%s: out of memory", pkg->path);
	else if (!sigs->verity.present)
		rasprintf(err, "%s: no fs-verity signatures", pkg->path);
	else if (sigs->verity.problem)
		rasprintf(err, "%s: %s", pkg->path, sigs->verity.problem);
	else
		return sigs;
	package_sigs_free(sigs);
	return NULL;
}

int package_verify(const struct package *pkg, rpmfiles files,
		   const struct verify_certs *certs, int jobs,
		   struct verify_result *out, char **err)
{
	int count = rpmfilesFC(files), rc = -1;
	struct verify_run v = { .files = files, .cert = certs->verity };
	struct digest_sink sink = { on_digest, on_copy, &v };

	memset(out, 0, sizeof(*out));
	out->nfiles = count;
	if (!(v.sigs = usable_sigs(pkg, count, err)))
		return -1;
	out->alg = v.sigs->alg;
	out->ima_present = v.sigs->ima.present;
	v.why = rcalloc(count ? (size_t)count : 1, sizeof(*v.why));
	if (file_digests_compute(pkg, files, v.sigs->alg, jobs, &sink,
				 &v.digests, err) != 0)
		goto out;
	rc = 0;
	for (int i = 0; rc == 0 && i < count; i++)
		if (v.why[i]) {
			rc = add_problem(out, VERIFY_VERITY, i, v.why[i]);
			v.why[i] = NULL;
		}
	if (rc == 0 && certs->ima &&
	    ima_verify_package(pkg, files, &v.sigs->ima, certs->ima,
			       certs->ima_keyid, &v.digests, add_ima_problem,
			       out) < 0)
		rc = -1;
	manifest_package_free(&v.digests);
	if (rc)
		rasprintf(err, "%s: out of memory", pkg->path);
out:
	for (int i = 0; v.why && i < count; i++)
		free(v.why[i]);
	free(v.why);
	package_sigs_free(v.sigs);
	if (rc)
		verify_result_free(out);
	return rc;
}

void verify_result_free(struct verify_result *r)
{
	for (size_t i = 0; i < r->nproblems; i++)
		free(r->problems[i].why);
	free(r->problems);
	r->problems = NULL;
	r->nproblems = 0;
}

int package_list_files(const struct package *pkg, rpmfiles files,
		       struct file_listing **out, char **problem)
{
	int count = rpmfilesFC(files);
	struct package_sigs *sigs = package_sigs_decode(pkg->sigh,
							PACKAGE_SIGS_SIGHEADER,
							(size_t)count);
	struct file_listing *l = calloc(count ? (size_t)count : 1, sizeof(*l));

	*out = NULL;
	*problem = NULL;
	if (!sigs || !l) {
		package_sigs_free(sigs);
		free(l);
		return -1;
	}
	/* A copy: the reason may live in @sigs, freed below. */
	if (sigs->verity.present && sigs->verity.problem &&
	    !(*problem = strdup(sigs->verity.problem))) {
		package_sigs_free(sigs);
		free(l);
		return -1;
	}
	for (int i = 0; i < count; i++) {
		mode_t mode = rpmfilesFMode(files, i);
		rpmfileAttrs flags = rpmfilesFFlags(files, i);

		l[i].is_signed = verity_file_signed(mode, flags);
		l[i].is_protected = verity_file_protected(mode, flags, false);
		l[i].entry = *problem ? FILE_SIG_MALFORMED :
			     sigs->verity.present ?
			     sigs->verity.files[i].state : FILE_SIG_NONE;
	}
	package_sigs_free(sigs);
	*out = l;
	return *problem ? 1 : 0;
}
