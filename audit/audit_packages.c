// SPDX-License-Identifier: MIT
/*
 * The audit's engine: every file an installed package signed, opened under
 * the root and asked by ioctl for fs-verity, the signed digest, the
 * package's builtin signature and its IMA signature, its signer checked
 * against the given certificates once per distinct signature. What it
 * finds goes to the report (audit_report.c); options and the summary are
 * the command's (signer/cmd_audit.c).
 */
#include "audit.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <rpm/rpmdb.h>
#include <rpm/rpmstring.h>
#include <rpm/rpmstrpool.h>

struct audit {
	const struct audit_packages_opts *o;
	struct audit_root *root;
	struct audit_sigcache *sigs;
	struct audit_report *rep;
	struct audit_file_state st;	/* big: reused for every file */
	rpmstrPool pool;		/* every package's file names */
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
		audit_report_problem(a->rep, AUDIT_IMA, pkg->nevra, path,
				     "the package's IMA signature is not hex");
		return;
	}
	hn = audit_read_ima(fd, have, sizeof(have));
	if (hn < 0)
		audit_report_problem(a->rep, AUDIT_IMA, pkg->nevra, path,
				     errno == ENODATA ? "no security.ima" :
				     strerror(errno));
	else if (hn != wn || memcmp(have, want, (size_t)wn) != 0)
		audit_report_problem(a->rep, AUDIT_IMA, pkg->nevra, path,
				     "security.ima is not the package's");
}

/* The file's builtin signature against the package's, byte for byte. */
static void check_builtin_sig(struct audit *a, const struct audit_pkg *pkg,
			      const char *path, const uint8_t *der, size_t len)
{
	const struct audit_file_state *st = &a->st;

	if (st->sig_errno == 0) {
		if (!der || st->sig_len != len || memcmp(st->sig, der, len))
			audit_report_problem(a->rep, AUDIT_SIG_DIFFERS,
					     pkg->nevra, path,
					     "verity was enabled with another signature");
	} else if (st->sig_errno == ENODATA) {
		audit_report_problem(a->rep, AUDIT_SIG_DIFFERS, pkg->nevra,
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
		audit_report_skip(a->rep, pkg->nevra, path, why);
		goto out;
	}
	a->rep->checked++;
	fd = audit_root_openat(a->root,
			       rpmfilesDN(pkg->files, rpmfilesDI(pkg->files, i)),
			       rpmfilesBN(pkg->files, i));
	if (fd < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			audit_report_problem(a->rep, AUDIT_MISSING, pkg->nevra,
					     path, NULL);
		else if (errno == ELOOP)
			audit_report_problem(a->rep, AUDIT_VERITY_OFF,
					     pkg->nevra, path,
					     "a symlink (not followed)");
		else if (audit_errno_is_file_damage(errno))
			audit_report_problem(a->rep, AUDIT_UNREADABLE,
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
			audit_report_problem(a->rep, AUDIT_UNREADABLE,
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
		audit_report_problem(a->rep, AUDIT_VERITY_OFF, pkg->nevra, path,
				     st->regular ? NULL : "not a regular file");
	if (sig->state == FILE_SIG_OK) {
		der = sig->bytes;
		len = sig->len;
		signer = audit_sigcache_signer(a->sigs, der, len);
	}
	if (signer == AUDIT_SIG_UNTRUSTED || signer == AUDIT_SIG_MALFORMED)
		audit_report_problem(a->rep, AUDIT_UNTRUSTED, pkg->nevra, path,
				     signer == AUDIT_SIG_UNTRUSTED ?
				     "signed by none of the certificates" :
				     sig->state == FILE_SIG_MALFORMED ?
				     sig->problem :
				     "the package's signature is malformed");
	if (st->measured && signer == AUDIT_SIG_OK) {
		if (st->digest_alg != pkg->alg->id)
			audit_report_problem(a->rep, AUDIT_DIGEST, pkg->nevra,
					     path, "measured with another hash algorithm");
		else if (audit_sigcache_check(a->sigs, pkg->alg, st->digest) !=
			 AUDIT_SIG_OK)
			audit_report_problem(a->rep, AUDIT_DIGEST, pkg->nevra,
					     path, NULL);
		else if (a->o->verified)
			a->o->verified(a->o->arg, fd, st);
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

	a->rep->packages++;
	if (audit_pkg_load(&pkg, h, a->pool, a->o->sign_config_files,
			   &err) != 0) {
		fprintf(stderr, "rpm-verity: %s\n", err);
		free(err);
		a->errors++;
	} else if (!pkg.has_sigs) {
		audit_report_skip(a->rep, pkg.nevra, pkg.nevra,
				  "the package has no fs-verity signatures");
	} else {
		for (int i = 0; i < pkg.nfiles; i++)
			audit_file(a, &pkg, i);
	}
	audit_pkg_free(&pkg);
}

/* Every installed package, or those @names match; -1 if one matched none. */
static int audit_db(struct audit *a, rpmts ts, const char *const *names)
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

int audit_packages(struct audit_packages_opts *o)
{
	struct audit *a = rcalloc(1, sizeof(*a));
	int rc;

	a->o = o;
	a->root = o->root;
	a->rep = o->rep;
	a->sigs = audit_sigcache_new(o->certs, o->ncerts);
	a->pool = rpmstrPoolCreate();
	rc = audit_db(a, o->ts, o->names);
	o->errors += a->errors;
	o->verifications = audit_sigcache_verifications(a->sigs);
	rpmstrPoolFree(a->pool);
	audit_sigcache_free(a->sigs);
	free(a);
	return rc;
}
