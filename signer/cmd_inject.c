// SPDX-License-Identifier: MIT
/*
 * rpm-verity inject: the build side's last step. Takes the signature file
 * sign-digests wrote and stores each package's signatures, but only after
 * checking, for every package named, that it is the package the manifest
 * was made from (NEVRA and binding digest), that the file counts agree, and
 * that every signature verifies with CERT over the digest the package
 * really has (recomputed from its payload, not taken from the file). Any
 * problem in any package and nothing is written.
 *
 * IMA signatures in the file (sign-digests --ima-key) are checked the same
 * way against --ima-cert and written as sign --ima-key writes them. They
 * are never dropped silently: without --ima-cert they are refused, and
 * --ima-cert without them too.
 */
#include <errno.h>
#include <popt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rpm/rpmfi.h>
#include <rpm/rpmmacro.h>
#include <rpm/rpmstring.h>
#include <rpm/rpmtag.h>

#include "cli.h"
#include "file_digests.h"
#include "file_msg.h"
#include "hex.h"
#include "ima_sig.h"
#include "ima_sigs.h"
#include "ima_tags.h"
#include "manifest.h"
#include "package.h"
#include "progress.h"
#include "sigfile.h"
#include "signed_write.h"
#include "signing_key.h"

#define MAX_REPORTED	10	/* problem lines per package */

/* One package: checked first, written after every package passed. */
struct target {
	const char *path;
	struct package pkg;
	rpmfiles files;
	const struct manifest_package *block;	/* its part of SIGS */
	struct manifest_package real;		/* digests it really has */
	const struct verity_hash_alg *alg;
	X509 *cert;
	X509 *imacert;		/* NULL without --ima-cert */
	uint32_t imakeyid;
	char **entries;		/* tag 276 strings, once checked */
	char **ima_entries;	/* tag 274 strings, once checked; NULL: none */
	char **problems;	/* per file, NULL when fine */
	int opened;
};

static void short_hex(const uint8_t *d, char out[17])
{
	hex_encode(d, 8, out);
}

/* The problem with file @index's IMA signature, or NULL; sets its entry. */
static char *check_ima(struct target *t, uint32_t index, const uint8_t *digest)
{
	const char *hex = t->block->ima[index];
	uint8_t value[IMA_VALUE_MAX];
	ssize_t len;
	char *why = NULL, *msg = NULL;

	if (!hex)	/* the parser lets a package have all or none */
		return rstrdup("the signature file has no IMA signature for it");
	len = ima_hex_decode(hex, value, sizeof(value));
	if (len < 0)
		return rstrdup("IMA signature is not hex");
	if (ima_verify_value(t->imacert, t->imakeyid, t->alg, digest, value,
			     (size_t)len, &why) != 0) {
		rasprintf(&msg, "%s (made with another key, or for another file)",
			  why);
		free(why);
		return msg;
	}
	t->ima_entries[index] = rstrdup(hex);
	return NULL;
}

/* The problem with file @index's signature, or NULL; sets its entry. */
static char *check_file(struct target *t, uint32_t index, const uint8_t *digest)
{
	const struct manifest_package *b = t->block;
	char want[17], got[17];
	uint8_t *der;
	size_t len = 0;
	char *why = NULL, *msg = NULL;

	if (!b->present[index])
		return rstrdup("the signature file has no signature for it");
	if (b->alg != t->alg ||
	    memcmp(manifest_digest(b, index), digest, t->alg->digest_size)) {
		short_hex(manifest_digest(b, index), want);
		short_hex(digest, got);
		rasprintf(&msg, "the signature file's digest %s... is not the file's %s... (manifest changed after digests, or the line belongs to another file)",
			  want, got);
		return msg;
	}
	der = sigfile_decode(b->sigs[index], &len);
	if (!der)
		return rstrdup("signature is not base64");
	if (verify_signature(t->cert, t->alg, digest, der, len, &why) != 0) {
		rasprintf(&msg, "%s (made with another key, or for another file)",
			  why);
		free(why);
	} else {
		t->entries[index] = verity_tag_entry(der, len);
		if (t->imacert)
			msg = check_ima(t, index, digest);
	}
	free(der);
	return msg;
}

/* Runs on the digest workers. */
static int on_digest(void *ctx, int index, const uint8_t *digest, char **err)
{
	struct target *t = ctx;

	(void)err;
	t->problems[index] = check_file(t, (uint32_t)index, digest);
	return 0;
}

static int on_copy(void *ctx, int index, int src, char **err)
{
	struct target *t = ctx;

	(void)src;
	(void)err;
	t->problems[index] = check_file(t, (uint32_t)index,
					manifest_digest(&t->real, (uint32_t)index));
	return 0;
}

static const struct manifest_package *
find_block(const struct manifest_package *blocks, size_t n,
	   const uint8_t *binding)
{
	for (size_t i = 0; i < n; i++)
		if (!memcmp(blocks[i].binding, binding, BINDING_SIZE))
			return &blocks[i];
	return NULL;
}

/* The first file @b signs (and with @ima, gives an IMA signature), or -1. */
static int first_signed(const struct manifest_package *b, int ima)
{
	for (uint32_t i = 0; i < b->count; i++)
		if (b->present[i] && (!ima || (b->ima && b->ima[i])))
			return (int)i;
	return -1;
}

/*
 * IMA signatures are stored only once checked, so they must come with the
 * certificate to check them, and the certificate with them. 0, or -1 with
 * the problem in *@err.
 */
static int check_ima_presence(const struct target *t, const char *sigpath,
			      char **err)
{
	int first = first_signed(t->block, 1);

	if (first >= 0 && !t->imacert) {
		*err = file_msg(t->path, t->files, first,
				"%s has IMA signatures for this package; give --ima-cert to check and store them",
				sigpath);
		return -1;
	}
	first = first_signed(t->block, 0);
	if (first >= 0 && t->imacert && !t->block->nima) {
		*err = file_msg(t->path, t->files, first,
				"%s has no IMA signature for it or any file of the package, but --ima-cert asks for them (sign-digests ran without --ima-key, or the ima lines were removed)",
				sigpath);
		return -1;
	}
	return 0;
}

static int same_nevra(const struct manifest_package *blocks, size_t n,
		      const char *nevra)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(blocks[i].nevra, nevra))
			return 1;
	return 0;
}

/* Check @t against the signature file; 0, or -1 after reporting. */
static int check_target(struct target *t, const struct manifest_package *blocks,
			size_t nblocks, const char *sigpath, int jobs)
{
	struct digest_sink sink = { .digest = on_digest, .copy = on_copy, .ctx = t };
	uint8_t binding[BINDING_SIZE];
	char *err = NULL, *nevra = NULL;
	uint32_t count;
	int bad = 0;

	if (package_open(&t->pkg, t->path, &err) != 0) {
		report(err);
		return -1;
	}
	t->opened = 1;
	t->files = rpmfilesNew(NULL, t->pkg.h, RPMTAG_BASENAMES, PACKAGE_FI_FLAGS);
	count = (uint32_t)rpmfilesFC(t->files);
	nevra = headerGetAsString(t->pkg.h, RPMTAG_NEVRA);
	if (package_binding_digest(&t->pkg, binding, &err) != 0)
		goto fail;
	t->block = find_block(blocks, nblocks, binding);
	if (!t->block) {
		if (same_nevra(blocks, nblocks, nevra))
			rasprintf(&err, "%s: %s was rebuilt after digests (its binding digest is not the one in %s)",
				  t->path, nevra, sigpath);
		else
			rasprintf(&err, "%s: %s has no signatures in %s",
				  t->path, nevra, sigpath);
		goto fail;
	}
	if (strcmp(t->block->nevra, nevra) != 0) {
		rasprintf(&err, "%s: is %s, but %s names it %s", t->path, nevra,
			  sigpath, t->block->nevra);
		goto fail;
	}
	if (t->block->count != count) {
		rasprintf(&err, "%s: %s has %u files, %s has %u entries for it",
			  t->path, nevra, count, sigpath, t->block->count);
		goto fail;
	}
	if (check_ima_presence(t, sigpath, &err) != 0)
		goto fail;
	t->alg = t->block->alg ? t->block->alg : verity_hash_alg_by_id(1);
	t->entries = rcalloc(count ? count : 1, sizeof(*t->entries));
	t->ima_entries = rcalloc(count ? count : 1, sizeof(*t->ima_entries));
	t->problems = rcalloc(count ? count : 1, sizeof(*t->problems));
	if (count && file_digests_compute(&t->pkg, t->files, t->alg, jobs,
					  &sink, &t->real, &err) != 0)
		goto fail;
	for (uint32_t i = 0; i < count; i++) {
		if (!t->problems[i] && !t->real.present[i]) {
			if (t->block->present[i])
				t->problems[i] = rstrdup("the signature file signs an entry that gets no signature");
			else
				t->entries[i] = rstrdup("");
		}
		/* a wrong key fails every file; the first few say enough */
		if (t->problems[i] && bad++ < MAX_REPORTED)
			report(file_msg(t->path, t->files, (int)i, "%s",
					t->problems[i]));
	}
	if (bad > MAX_REPORTED) {
		rasprintf(&err, "%s: %d more files refused", t->path,
			  bad - MAX_REPORTED);
		report(err);
	}
	free(nevra);
	return bad ? -1 : 0;
fail:
	report(err);
	free(nevra);
	return -1;
}

static void free_target(struct target *t)
{
	uint32_t count = t->files ? (uint32_t)rpmfilesFC(t->files) : 0;

	for (uint32_t i = 0; i < count; i++) {
		if (t->entries)
			free(t->entries[i]);
		if (t->ima_entries)
			free(t->ima_entries[i]);
		if (t->problems)
			free(t->problems[i]);
	}
	free(t->entries);
	free(t->ima_entries);
	free(t->problems);
	manifest_package_free(&t->real);
	rpmfilesFree(t->files);
	if (t->opened)
		package_close(&t->pkg);
}

/* The whole signature file; 0, or -1 after reporting. */
static int read_sigfile(const char *path, struct manifest_package **blocks,
			size_t *n)
{
	FILE *in = fopen(path, "r");
	struct manifest_reader r;
	struct manifest_package p;
	size_t cap = 0;
	char *err = NULL;
	int rc;

	if (!in) {
		report(rstrscat(NULL, path, ": cannot open: ", strerror(errno), NULL));
		return -1;
	}
	manifest_reader_init(&r, &sigfile_format, in, path);
	while ((rc = manifest_read_package(&r, &p, &err)) > 0) {
		if (*n == cap) {
			cap = cap ? 2 * cap : 64;
			*blocks = rrealloc(*blocks, cap * sizeof(**blocks));
		}
		(*blocks)[(*n)++] = p;
	}
	manifest_reader_free(&r);
	fclose(in);
	if (rc < 0)
		report(err);
	return rc < 0 ? -1 : 0;
}

int cmd_inject(int argc, const char **argv)
{
	char *certopt = NULL, *imacertpath = NULL, *outdir = NULL, *sighdr_dir = NULL;
	int jobs = 0, rc = 2, bad = 0;
	struct poptOption opts[] = {
		{ "cert", 'c', POPT_ARG_STRING, &certopt, 0,
		  "X.509 certificate every signature must verify with "
		  "(default: %_file_signing_cert)", "CERT" },
		{ "ima-cert", 0, POPT_ARG_STRING, &imacertpath, 0,
		  "X.509 certificate every IMA signature must verify with "
		  "(needed when the signature file has IMA signatures)", "IMACERT" },
		JOBS_OPTION(jobs, "hashing"),
		{ "output-dir", 'o', POPT_ARG_STRING, &outdir, 0,
		  "write signed packages to DIR instead of in place", "DIR" },
		{ "sighdr-out", 0, POPT_ARG_STRING, &sighdr_dir, 0,
		  "also write each new signature header alone to DIR/PACKAGE.rpm.sighdr",
		  "DIR" },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext("rpm-verity inject", argc, argv, opts, 0);
	struct manifest_package *blocks = NULL;
	struct target *targets = NULL;
	size_t nblocks = 0, ntargets = 0, files = 0;
	struct progress prog;
	char *certpath = NULL, *err = NULL;
	const char **args;
	X509 *cert = NULL, *imacert = NULL;
	uint32_t imakeyid = 0;

	poptSetOtherOptionHelp(ctx, "--cert CERT [--ima-cert IMACERT] SIGNATURES PACKAGE.rpm...");
	args = parse_command_line(ctx, "inject", &jobs);
	if (!args)
		goto out;
	if (!args[1]) {
		fprintf(stderr, "rpm-verity inject: give the signature file and at least one package\n");
		goto out;
	}
	rc = 1;
	certpath = option_or_macro(certopt, "%{?_file_signing_cert}");
	if (!certpath) {
		report(rstrdup("no certificate: give --cert or set %_file_signing_cert"));
		goto out;
	}
	if ((outdir && !is_writable_dir(outdir)) ||
	    (sighdr_dir && !is_writable_dir(sighdr_dir)))
		goto out;
	if (!(cert = load_certificate(certpath, &err)) ||
	    (imacertpath && (!(imacert = load_certificate(imacertpath, &err)) ||
			     ima_keyid_of_cert(imacert, imacertpath, &imakeyid,
					       &err) != 0))) {
		report(err);
		goto out;
	}
	if (read_sigfile(args[0], &blocks, &nblocks) != 0)
		goto out;
	while (args[1 + ntargets])
		ntargets++;
	targets = rcalloc(ntargets, sizeof(*targets));
	progress_init(&prog, "inject: checked", ntargets);
	for (size_t i = 0; i < ntargets; i++) {
		targets[i].path = args[1 + i];
		targets[i].cert = cert;
		targets[i].imacert = imacert;
		targets[i].imakeyid = imakeyid;
		bad |= check_target(&targets[i], blocks, nblocks, args[0], jobs) != 0;
		files += targets[i].files ? (size_t)rpmfilesFC(targets[i].files) : 0;
		progress_show(&prog, i + 1, files);
	}
	progress_end(&prog);
	if (bad) {
		report(rstrscat(NULL, args[0], ": refused; no package was changed", NULL));
		goto out;
	}
	for (size_t i = 0; i < ntargets; i++) {
		struct target *t = &targets[i];
		char *dest = output_path(outdir, t->path);
		uint32_t count = (uint32_t)rpmfilesFC(t->files);

		struct ima_sigs ima = { .count = count, .hex = t->ima_entries };

		if (count == 0) {
			printf("%s: no files, nothing to sign\n", t->path);
		} else if (ima_tags_store(&t->pkg, imacert ? &ima : NULL, &err) != 0 ||
			   write_signed_package(&t->pkg, t->entries, count, t->alg,
						dest, sighdr_dir, &err) != 0) {
			report(err);
			err = NULL;
			bad = 1;
		} else {
			printf("%s: %u signatures checked and stored (%s%s)\n", dest,
			       count, t->alg->name,
			       imacert ? ", with IMA signatures" : "");
		}
		free(dest);
	}
	rc = bad;
out:
	for (size_t i = 0; i < ntargets; i++)
		free_target(&targets[i]);
	free(targets);
	for (size_t i = 0; i < nblocks; i++)
		manifest_package_free(&blocks[i]);
	free(blocks);
	X509_free(cert);
	X509_free(imacert);
	free(certopt);
	free(imacertpath);
	free(certpath);
	free(outdir);
	free(sighdr_dir);
	poptFreeContext(ctx);
	return rc;
}
