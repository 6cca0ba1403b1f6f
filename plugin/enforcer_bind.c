// SPDX-License-Identifier: MIT
/*
 * The plugin's part wherever rpm-verity-enforcer is loaded, which is where
 * the kernel may not check fs-verity signatures at all (no
 * CONFIG_FS_VERITY_BUILTIN_SIGNATURES, as Fedora, RHEL and openSUSE build
 * theirs): the plugin checks each file's signature itself, against
 * %_fsverity_certs, over the digest the kernel measured once verity is
 * on. A file that fails is a failure under the policy, as the kernel's
 * refusal is elsewhere. Without the enforcer, on such a kernel, it says
 * once per transaction that nothing checks the signatures.
 *
 * With the enforcer loaded, each verified file is bound in its table at
 * its final path once rpm has renamed it there (fsm_file_post), and an
 * erased file is unbound before rpm removes it (fsm_file_pre). So after
 * an upgrade the new version runs and the old one, still open or linked
 * elsewhere, does not; between the rename and the bind the new file is
 * refused, never the other way round.
 *
 * rpm enters --root before the files, so the table is opened and the
 * certificates read in tsm_pre, and paths are bound with the root in
 * front, as processes outside the root (the ones that run them) see them.
 */
#include "verity.h"
#include "cert_file.h"
#include "enforcer_table.h"
#include "sig_verifier.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/fsverity.h>

#include <rpm/rpmstring.h>
#include <rpm/rpmts.h>

/* The certificates of %_fsverity_certs, as verifiers. */
static bool load_verifiers(struct verity_plugin *vp, int level)
{
	char *list = rstrdup(vp->set.certs ? vp->set.certs : "");
	char *save = NULL, why[512];
	X509 **certs = NULL;
	size_t n = 0;
	bool ok = true;

	for (char *f = strtok_r(list, " \t\n", &save); f;
	     f = strtok_r(NULL, " \t\n", &save))
		if (!cert_file_read(f, &certs, &n, why, sizeof(why))) {
			rpmlog(level, "verity: %s\n", why);
			ok = false;
		}
	free(list);
	vp->verifiers = rcalloc(n ? n : 1, sizeof(*vp->verifiers));
	for (size_t i = 0; i < n; i++) {
		if (!(vp->verifiers[i] = sig_verifier_new(certs[i])))
			abort();
		X509_free(certs[i]);	/* the verifier holds a reference */
	}
	free(certs);
	vp->nverifiers = n;
	if (!n) {
		rpmlog(level, "verity: no certificate in %%_fsverity_certs to check signatures with\n");
		ok = false;
	}
	return ok;
}

rpmRC verity_enforcer_start(struct verity_plugin *vp, rpmts ts,
			    bool kernel_checks)
{
	int level = verity_fail_level(vp->set.policy);
	const char *root = rpmtsRootDir(ts);
	char *abs = realpath(root ? root : "/", NULL);
	int fd = enforcer_table_open();

	vp->table_fd = fd >= 0 ? fd : -1;
	vp->root_prefix = rstrdup(abs && strcmp(abs, "/") ? abs : "");
	free(abs);
	vp->self_check = vp->active && vp->table_fd >= 0;
	if (vp->active && !kernel_checks)
		rpmlog(vp->table_fd >= 0 ? RPMLOG_NOTICE : RPMLOG_WARNING,
		       "verity: this kernel has no .fs-verity keyring: it does "
		       "not check fs-verity signatures; %s\n",
		       vp->table_fd >= 0 ?
		       "the plugin checks them against %_fsverity_certs, and "
		       "rpm-verity-enforcer runs each file only at the path it "
		       "was signed for" :
		       "certificates not loaded, and nothing checks the "
		       "signatures when files run (rpm-verity-enforcer is not "
		       "loaded)");
	if (vp->self_check && !load_verifiers(vp, level))
		return verity_fail_or_ok(vp);
	return RPMRC_OK;
}

void verity_enforcer_stop(struct verity_plugin *vp)
{
	for (size_t i = 0; i < vp->nverifiers; i++)
		sig_verifier_free(vp->verifiers[i]);
	free(vp->verifiers);
	vp->verifiers = NULL;
	vp->nverifiers = 0;
	if (vp->table_fd >= 0)
		close(vp->table_fd);
	vp->table_fd = -1;
	free(vp->root_prefix);
	vp->root_prefix = NULL;
	free(vp->bound);
	vp->bound = NULL;
	vp->nbound = 0;
}

void verity_enforcer_package(struct verity_plugin *vp, size_t nfiles)
{
	free(vp->bound);
	vp->bound = NULL;
	vp->nbound = 0;
	if (vp->table_fd >= 0 && nfiles) {
		vp->bound = rcalloc(nfiles, sizeof(*vp->bound));
		vp->nbound = nfiles;
	}
}

/* Whether a trusted certificate's key signed @digest in @sig. */
static bool trusted(const struct verity_plugin *vp, const struct file_sig *sig,
		    const uint8_t *digest)
{
	struct verity_sig_parts parts;

	if (!verity_sig_parts(sig->bytes, sig->len, &parts))
		return false;
	for (size_t i = 0; i < vp->nverifiers; i++) {
		char *why = NULL;
		bool ok = sig_verifier_signed_by(vp->verifiers[i], &parts,
						 sig->bytes, sig->len) &&
			  sig_verifier_check(vp->verifiers[i], &parts,
					     sig->bytes, sig->len, vp->pkg->alg,
					     digest, &why) == 0;

		free(why);
		if (ok)
			return true;
	}
	return false;
}

rpmRC verity_check_signature(struct verity_plugin *vp, rpmfi fi, int fd,
			     const struct file_sig *sig, const char *dest)
{
	uint64_t buf[(sizeof(struct fsverity_digest) + 64) / 8];
	struct fsverity_digest *m = (struct fsverity_digest *)buf;
	int ix = rpmfiFX(fi);

	if (!vp->self_check)
		return RPMRC_OK;
	m->digest_size = 64;
	if (ioctl(fd, FS_IOC_MEASURE_VERITY, m) != 0) {
		rpmlog(verity_fail_level(vp->set.policy),
		       "verity: %s: cannot measure it: %s\n", dest,
		       strerror(errno));
		return verity_fail_or_ok(vp);
	}
	if (m->digest_algorithm != vp->pkg->alg->id || !trusted(vp, sig, m->digest)) {
		rpmlog(verity_fail_level(vp->set.policy),
		       "verity: %s: its fs-verity signature is by none of the "
		       "certificates in %%_fsverity_certs, or not over this "
		       "file (checked by the plugin: this kernel does not)\n",
		       dest);
		return verity_fail_or_ok(vp);
	}
	if (ix >= 0 && (size_t)ix < vp->nbound) {
		struct verity_bound *b = &vp->bound[ix];

		b->alg = m->digest_algorithm;
		b->size = m->digest_size;
		memcpy(b->digest, m->digest, m->digest_size);
	}
	return RPMRC_OK;
}

/* The path @path of @fi as the enforcer keys it: root, then the real path. */
static char *table_path(const struct verity_plugin *vp, rpmfi fi,
			const char *path)
{
	char *full = path[0] == '/' ? rstrdup(path) :
		     rstrscat(NULL, rpmfiDN(fi), path, NULL);
	char *real = realpath(full, NULL);
	char *key = rstrscat(NULL, vp->root_prefix, real ? real : full, NULL);

	free(real);
	free(full);
	return key;
}

/* The digest verified for file @fi, or for another name of its hardlink set. */
static const struct verity_bound *bound_digest(const struct verity_plugin *vp,
					       rpmfi fi)
{
	int ix = rpmfiFX(fi);
	const int *links = NULL;
	uint32_t n;

	if (ix < 0 || (size_t)ix >= vp->nbound)
		return NULL;
	if (vp->bound[ix].size)
		return &vp->bound[ix];
	/* A file of no hardlink set counts 1 and names no members. */
	n = rpmfiFLinks(fi, &links);
	for (uint32_t i = 0; links && i < n; i++)
		if (links[i] >= 0 && (size_t)links[i] < vp->nbound &&
		    vp->bound[links[i]].size)
			return &vp->bound[links[i]];
	return NULL;
}

void verity_enforcer_file_post(struct verity_plugin *vp, rpmfi fi,
			       const char *path, rpmFsmOp op, int res)
{
	const struct verity_bound *b;
	char *key;
	int rc;

	if (vp->table_fd < 0 || res || !fi || !XFA_CREATING(XFO_ACTION(op)) ||
	    !(b = bound_digest(vp, fi)))
		return;
	key = table_path(vp, fi, path);
	rc = enforcer_bind(vp->table_fd, key, b->alg, b->digest, b->size);
	if (rc)
		rpmlog(RPMLOG_WARNING, "verity: %s: not bound in the enforcer's table: %s; it will not run\n",
		       key, strerror(-rc));
	else
		vp->n_bound++;
	free(key);
}

void verity_enforcer_file_pre(struct verity_plugin *vp, rpmfi fi,
			      const char *path, rpmFsmOp op)
{
	char *key;
	int rc;

	if (vp->table_fd < 0 || !fi || XFO_ACTION(op) != FA_ERASE)
		return;
	key = table_path(vp, fi, path);
	rc = enforcer_unbind(vp->table_fd, key);
	if (rc)
		rpmlog(RPMLOG_WARNING, "verity: %s: cannot unbind it in the enforcer's table: %s\n",
		       key, strerror(-rc));
	free(key);
}
