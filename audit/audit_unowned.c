// SPDX-License-Identifier: MIT
/*
 * audit --unowned: fs-verity and IMA sigv3 sign content, not a path, so a
 * signed binary hard-linked or moved to a path no package lists still runs
 * under a policy that asks only for a valid signature. This reads the paths
 * packages own, walks the trees (unowned_walk.c) and reports every regular
 * file with fs-verity on, or with an IMA signature in security.ima, at a
 * path the rpmdb does not list, naming the package file whose signed
 * content it is when the index finds one.
 *
 * The owned paths come from the rpmdb's SQLite file directly when rpm is
 * configured for it (rpmdb_sqlite.c), else, or if that reader refuses
 * anything, through librpm.
 */
#include "audit.h"
#include "rpmdb_sqlite.h"
#include "signing_key.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <rpm/rpmdb.h>
#include <rpm/rpmmacro.h>
#include <rpm/rpmstring.h>
#include <rpm/rpmstrpool.h>

struct unowned {
	struct unowned_walk walk;	/* first: the callbacks get it */
	const struct audit_unowned_opts *o;
	struct audit_owned *owned;
	struct audit_index *index;	/* NULL until a signed file needs it */
	unsigned long errors;
};

/*
 * What every package signed, read again from the rpmdb the first time a
 * signed file turns up at a path no package owns: decoding every file's
 * signatures (base64 and hex) was most of a clean run's cost, for an index
 * a clean system never asks. A package whose tags are malformed is an
 * error here, as the audit of the packages' files reports it; a clean
 * system's scan reads no tags.
 */
static struct audit_index *index_of(struct unowned *w)
{
	rpmdbMatchIterator mi;
	rpmstrPool pool;
	struct audit_pkg pkg;
	char *err = NULL;
	Header h;

	if (w->index)
		return w->index;
	/* keeps its own references to the certificates */
	w->index = audit_index_new(w->o->certs, w->o->ncerts);
	mi = rpmtsInitIterator(w->o->ts, RPMDBI_PACKAGES, NULL, 0);
	pool = rpmstrPoolCreate();
	while ((h = rpmdbNextIterator(mi))) {
		if (audit_pkg_load(&pkg, h, pool, false, &err) != 0) {
			fprintf(stderr, "rpm-verity audit: %s\n", err);
			free(err);
			err = NULL;
			w->errors++;
		} else {
			for (int i = 0; i < pkg.nfiles; i++)
				audit_index_add(w->index, &pkg, i);
		}
		audit_pkg_free(&pkg);
	}
	rpmdbFreeIterator(mi);
	rpmstrPoolFree(pool);
	return w->index;
}

/* @ima_len: the IMA signature's length in walk->ima, 0 without one. */
static bool report(struct unowned_walk *walk, const char *path, bool verity,
		   size_t ima_len, const char *why_not_measured)
{
	struct unowned *w = (struct unowned *)walk;
	const struct audit_file_state *st = &walk->st;
	const struct audit_pkgfile *pf = NULL;
	const char *how = "signed content of";
	char *detail = NULL;

	if (st->measured)
		pf = audit_index_content(index_of(w), st->digest_alg, st->digest,
					 st->sig_errno == 0 ? st->sig : NULL,
					 st->sig_len);
	if (!pf && ima_len) {
		pf = audit_index_ima(index_of(w), walk->ima, ima_len);
		how = "IMA signature of";
	}
	rasprintf(&detail, "%s%s%s%s%s",
		  verity ? "fs-verity" : "",
		  verity && ima_len ? " and " : "",
		  ima_len ? "an IMA signature" : "",
		  why_not_measured ? ", not measured: " : "",
		  why_not_measured ? why_not_measured : "");
	if (!pf)
		detail = rstrcat(&detail, ", content no installed package signed");
	audit_report_unowned(w->o->rep, path, how, pf, detail);
	free(detail);
	return true;
}

static bool walk_error(struct unowned_walk *walk, const char *path,
		       const char *what)
{
	struct unowned *w = (struct unowned *)walk;

	fprintf(stderr, "rpm-verity audit: %s: %s: %s\n", path, what,
		strerror(errno));
	w->errors++;
	return true;
}

/*
 * Every installed package's paths, from the SQLite file when rpm reads
 * that one; returns how many packages.
 */
static unsigned long read_owned(struct unowned *w)
{
	char *backend = rpmExpand("%{?_db_backend}", NULL);
	bool sqlite = !strcmp(backend, "sqlite") &&
		      rpmdb_sqlite_present(w->o->dbdir);
	rpmdbMatchIterator mi;
	unsigned long n = 0;
	rpmstrPool pool;
	struct audit_pkg pkg;
	char *err = NULL;
	Header h;

	free(backend);
	if (sqlite) {
		long got = rpmdb_sqlite_files(w->o->dbdir, audit_owned_add_fn,
					      w->owned, &err);

		if (got >= 0)
			return (unsigned long)got;
		/* librpm has the last word on what the rpmdb holds. */
		free(err);
		audit_owned_free(w->owned);
		w->owned = audit_owned_new(w->o->root);
	}
	mi = rpmtsInitIterator(w->o->ts, RPMDBI_PACKAGES, NULL, 0);
	pool = rpmstrPoolCreate();
	while ((h = rpmdbNextIterator(mi))) {
		audit_pkg_load_names(&pkg, h, pool);
		n++;
		for (int i = 0; i < pkg.nfiles; i++) {
			int di = rpmfilesDI(pkg.files, i);

			audit_owned_add(w->owned, rpmfilesDN(pkg.files, di),
					rpmfilesBN(pkg.files, i),
					rpmfilesFMode(pkg.files, i));
		}
		audit_pkg_free(&pkg);
	}
	rpmdbFreeIterator(mi);
	rpmstrPoolFree(pool);
	return n;
}

unsigned long audit_unowned(const struct audit_unowned_opts *o)
{
	struct unowned *w = rcalloc(1, sizeof(*w));
	unsigned long errors;
	rpmVSFlags vsflags;

	w->o = o;
	w->owned = audit_owned_new(o->root);
	o->rep->unowned = true;
	/*
	 * rpm checks each header it reads from the rpmdb against the digests
	 * (SHA-1, SHA-256) and any OpenPGP signature it carries. Not in this
	 * scan: that cost as much as the rest of a clean scan, and it finds a
	 * damaged rpmdb, not a forged one, since whoever can write the rpmdb
	 * can recompute the digests and drop the signature (rpm takes a
	 * header without one). The header's structure is still checked,
	 * by rpmdb_blob.c or headerImport. The scan's trust lies elsewhere:
	 * a file's content is named as a package's through a signature that
	 * verifies against --cert (or an IMA value, byte for byte), and a
	 * forged header can claim a path, and so hide a file from the scan,
	 * checked digests or not. The audit without --unowned leaves rpm's
	 * setting as it is.
	 */
	vsflags = rpmtsVSFlags(o->ts);
	rpmtsSetVSFlags(o->ts, vsflags | RPMVSF_NOHDRCHK);
	o->rep->packages = read_owned(w);
	w->walk = (struct unowned_walk){
		.root = o->root, .owned = w->owned, .paths = o->paths,
		.found = report, .error = walk_error,
	};
	unowned_walk(&w->walk);
	o->rep->scanned = w->walk.scanned;
	rpmtsSetVSFlags(o->ts, vsflags);
	errors = w->errors;
	audit_index_free(w->index);
	audit_owned_free(w->owned);
	free(w);
	return errors;
}
