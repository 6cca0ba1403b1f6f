// SPDX-License-Identifier: MIT
/*
 * verity.so: the rpm 4.18 transaction plugin that protects installed files
 * with the fs-verity signatures their package carries. The hooks are here;
 * settings.c reads the macros, keyring.c loads certificates, package_sigs.c
 * decodes a package's signatures and enable.c talks to the kernel.
 *
 * Where things are decided: certificates are loaded in tsm_pre (before
 * rpm enters --root); package-level problems (no signatures, unknown
 * algorithm, entry count) in psm_pre, before rpm unpacks anything; file
 * problems in fsm_file_prepare, where a failure makes rpm remove every file
 * of the package that has not reached its final name.
 *
 * Every hook logs one "verity: hook NAME" line at debug level as it starts,
 * so `rpm -vv` shows which of our functions rpm called for which slot; the
 * hooks that have no work (scriptlets, file pre/post) exist for that alone.
 */
#include "rpmplugin_418.h"
#include "verity.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rpm/rpmfiles.h>
#include <rpm/rpmstring.h>
#include <rpm/rpmte.h>
#include <rpm/rpmts.h>

struct verity_plugin {
	struct verity_settings set;
	bool active;		/* this transaction installs files, policy on */
	struct verity_package_sigs *pkg;	/* package being installed */
	bool pkg_skip;		/* its signatures are unusable (warned) */
	dev_t *unsupported;	/* filesystems already reported */
	size_t n_unsupported;
};

static void trace(const char *hook)
{
	rpmlog(RPMLOG_DEBUG, "verity: hook %s\n", hook);
}

static struct verity_plugin *state(rpmPlugin plugin)
{
	return rpmPluginGetData(plugin);
}

static rpmRC fail_or_ok(const struct verity_plugin *vp)
{
	return vp->set.policy == VERITY_POLICY_ENFORCE ? RPMRC_FAIL : RPMRC_OK;
}

static rpmRC verity_init(rpmPlugin plugin, rpmts ts)
{
	struct verity_plugin *vp = calloc(1, sizeof(*vp));

	(void)ts;
	trace("init");
	if (vp == NULL)
		return RPMRC_FAIL;
	rpmPluginSetData(plugin, vp);
	if (!verity_settings_load(&vp->set))
		return RPMRC_FAIL;
	rpmlog(RPMLOG_DEBUG, "verity: policy %s, certificates \"%s\"\n",
	       verity_policy_name(vp->set.policy), vp->set.certs);
	return RPMRC_OK;
}

static void verity_cleanup(rpmPlugin plugin)
{
	struct verity_plugin *vp = state(plugin);

	if (vp == NULL)
		return;
	verity_package_sigs_free(vp->pkg);
	verity_settings_free(&vp->set);
	free(vp->unsupported);
	free(vp);
	rpmPluginSetData(plugin, NULL);
}

static bool installs_packages(rpmts ts)
{
	rpmtsi it = rpmtsiInit(ts);
	bool found = false;

	while (!found && rpmtsiNext(it, TR_ADDED) != NULL)
		found = true;
	rpmtsiFree(it);
	return found;
}

static rpmRC verity_tsm_pre(rpmPlugin plugin, rpmts ts)
{
	struct verity_plugin *vp = state(plugin);
	int level = verity_fail_level(vp->set.policy);

	trace("tsm_pre");
	vp->active = vp->set.policy != VERITY_POLICY_OFF &&
		     !(rpmtsFlags(ts) & (RPMTRANS_FLAG_TEST |
					 RPMTRANS_FLAG_JUSTDB)) &&
		     installs_packages(ts);
	if (!vp->active)
		return RPMRC_OK;

	switch (verity_keyring_setup(&vp->set, level)) {
	case VERITY_KEYRING_OK:
		return RPMRC_OK;
	case VERITY_KEYRING_UNSUPPORTED:
		rpmlog(vp->set.require_fs_support ? RPMLOG_ERR : RPMLOG_WARNING,
		       "verity: this kernel has no .fs-verity keyring (no "
		       "fs-verity signature support); certificates not "
		       "loaded\n");
		return vp->set.require_fs_support ? RPMRC_FAIL : RPMRC_OK;
	case VERITY_KEYRING_FAILED:
		break;
	}
	return fail_or_ok(vp);
}

static rpmRC verity_tsm_post(rpmPlugin plugin, rpmts ts, int res)
{
	struct verity_plugin *vp = state(plugin);

	(void)ts;
	(void)res;
	trace("tsm_post");
	free(vp->unsupported);
	vp->unsupported = NULL;
	vp->n_unsupported = 0;
	vp->active = false;
	return RPMRC_OK;
}

/* A file this plugin would protect, judged from the package alone. */
static bool wants_verity(const struct verity_settings *s, mode_t mode,
			 rpmfileAttrs flags)
{
	if (!S_ISREG(mode) || (flags & RPMFILE_GHOST))
		return false;
	/* Like upstream: admins edit config files, unless they are programs. */
	if ((flags & RPMFILE_CONFIG) && !(mode & 0111) && !s->sign_config_files)
		return false;
	return true;
}

/* The first file of the package this plugin would protect (malloc'ed). */
static char *first_protectable_file(const struct verity_settings *s,
				    rpmfiles files)
{
	int n = rpmfilesFC(files);

	for (int i = 0; i < n; i++)
		if (wants_verity(s, rpmfilesFMode(files, i),
				 rpmfilesFFlags(files, i)))
			return rpmfilesFN(files, i);
	return NULL;
}

/* A package without signatures: refused under enforce, else a warning. */
static rpmRC unsigned_package(struct verity_plugin *vp, rpmte te)
{
	rpmfiles files = rpmteFiles(te);
	char *file = first_protectable_file(&vp->set, files);
	rpmRC rc = RPMRC_OK;

	rpmfilesFree(files);
	vp->pkg_skip = true;
	if (file == NULL)
		return RPMRC_OK;	/* nothing to protect, e.g. only dirs */
	if (vp->set.policy == VERITY_POLICY_ENFORCE) {
		rpmlog(RPMLOG_ERR, "verity: %s: package has no fs-verity "
		       "signatures (first unprotected file: %s); refused by "
		       "%%_fsverity_policy enforce\n", vp->pkg->nevra, file);
		rc = RPMRC_FAIL;
	} else {
		rpmlog(RPMLOG_WARNING, "verity: %s: package has no fs-verity "
		       "signatures; its files are installed without "
		       "fs-verity\n", vp->pkg->nevra);
	}
	free(file);
	return rc;
}

static rpmRC verity_psm_pre(rpmPlugin plugin, rpmte te)
{
	struct verity_plugin *vp = state(plugin);
	int level = verity_fail_level(vp->set.policy);
	Header h;

	trace("psm_pre");
	verity_package_sigs_free(vp->pkg);
	vp->pkg = NULL;
	vp->pkg_skip = false;
	if (!vp->active || rpmteType(te) != TR_ADDED)
		return RPMRC_OK;

	h = rpmteHeader(te);
	vp->pkg = h ? verity_package_sigs_new(h) : NULL;
	headerFree(h);
	if (vp->pkg == NULL) {
		rpmlog(RPMLOG_ERR, "verity: %s: cannot read the package "
		       "header\n", rpmteNEVRA(te));
		return RPMRC_FAIL;
	}
	if (vp->pkg->algo_problem || vp->pkg->count_problem) {
		if (vp->pkg->algo_problem)
			rpmlog(level, "verity: %s: %s (%u)\n", vp->pkg->nevra,
			       vp->pkg->algo_problem, vp->pkg->algo);
		else
			rpmlog(level, "verity: %s: %s\n", vp->pkg->nevra,
			       vp->pkg->count_problem);
		vp->pkg_skip = true;
		return fail_or_ok(vp);
	}
	if (!vp->pkg->has_tag)
		return unsigned_package(vp, te);
	return RPMRC_OK;
}

static rpmRC verity_psm_post(rpmPlugin plugin, rpmte te, int res)
{
	struct verity_plugin *vp = state(plugin);

	(void)te;
	(void)res;
	trace("psm_post");
	verity_package_sigs_free(vp->pkg);
	vp->pkg = NULL;
	return RPMRC_OK;
}

static rpmRC verity_scriptlet_pre(rpmPlugin plugin, const char *s_name,
				  int type)
{
	(void)plugin;
	(void)s_name;
	(void)type;
	trace("scriptlet_pre");
	return RPMRC_OK;
}

static rpmRC verity_scriptlet_fork_post(rpmPlugin plugin, const char *path,
					int type)
{
	(void)plugin;
	(void)path;
	(void)type;
	trace("scriptlet_fork_post");
	return RPMRC_OK;
}

static rpmRC verity_scriptlet_post(rpmPlugin plugin, const char *s_name,
				   int type, int res)
{
	(void)plugin;
	(void)s_name;
	(void)type;
	(void)res;
	trace("scriptlet_post");
	return RPMRC_OK;
}

static rpmRC verity_fsm_file_pre(rpmPlugin plugin, rpmfi fi, const char *path,
				 mode_t mode, rpmFsmOp op)
{
	(void)plugin;
	(void)fi;
	(void)path;
	(void)mode;
	(void)op;
	trace("fsm_file_pre");
	return RPMRC_OK;
}

static rpmRC verity_fsm_file_post(rpmPlugin plugin, rpmfi fi, const char *path,
				  mode_t mode, rpmFsmOp op, int res)
{
	(void)plugin;
	(void)fi;
	(void)path;
	(void)mode;
	(void)op;
	(void)res;
	trace("fsm_file_post");
	return RPMRC_OK;
}

static bool dev_known(const struct verity_plugin *vp, dev_t dev)
{
	for (size_t i = 0; i < vp->n_unsupported; i++)
		if (vp->unsupported[i] == dev)
			return true;
	return false;
}

/* The first file on a filesystem without verity: say so once. */
static rpmRC unsupported_fs(struct verity_plugin *vp, const char *dest,
			    dev_t dev, int err)
{
	dev_t *grown = realloc(vp->unsupported,
			       (vp->n_unsupported + 1) * sizeof(*grown));

	if (grown != NULL) {
		vp->unsupported = grown;
		vp->unsupported[vp->n_unsupported++] = dev;
	}
	if (vp->set.require_fs_support) {
		rpmlog(RPMLOG_ERR, "verity: %s: %s; refused by "
		       "%%_fsverity_require_fs_support\n", dest,
		       verity_enable_reason(err));
		return RPMRC_FAIL;
	}
	rpmlog(RPMLOG_WARNING, "verity: %s: %s; files on this filesystem "
	       "are installed without fs-verity\n", dest,
	       verity_enable_reason(err));
	return RPMRC_OK;
}

/* The signature for the file fi points at, or NULL (after any report). */
static const struct verity_file_sig *file_sig(struct verity_plugin *vp,
					      rpmfi fi, const char *dest,
					      rpmRC *rc)
{
	int ix = rpmfiFX(fi);
	const struct verity_file_sig *sig;
	int level = verity_fail_level(vp->set.policy);

	*rc = RPMRC_OK;
	if (ix < 0 || (size_t)ix >= vp->pkg->nfiles)
		return NULL;
	sig = &vp->pkg->files[ix];
	switch (sig->state) {
	case VERITY_SIG_OK:
		return sig;
	case VERITY_SIG_NONE:
		rpmlog(level, "verity: %s: no fs-verity signature for this "
		       "file in the package\n", dest);
		break;
	case VERITY_SIG_MALFORMED:
		rpmlog(level, "verity: %s: %s\n", dest, sig->problem);
		break;
	}
	*rc = fail_or_ok(vp);
	return NULL;
}

/* What a verity_enable() result means under the settings. */
static rpmRC enable_result(struct verity_plugin *vp, const char *dest,
			   dev_t dev, int err)
{
	if (err == 0) {
		rpmlog(RPMLOG_DEBUG, "verity: %s: fs-verity enabled\n", dest);
		return RPMRC_OK;
	}
	if (verity_errno_is_unsupported(err))
		return unsupported_fs(vp, dest, dev, err);
	rpmlog(verity_fail_level(vp->set.policy), "verity: %s: %s\n", dest,
	       verity_enable_reason(err));
	return fail_or_ok(vp);
}

static rpmRC verity_fsm_file_prepare(rpmPlugin plugin, rpmfi fi, int fd,
				     const char *path, const char *dest,
				     mode_t mode, rpmFsmOp op)
{
	struct verity_plugin *vp = state(plugin);
	rpmFileAction action = XFO_ACTION(op);
	const struct verity_file_sig *sig;
	struct verity_enable_req req;
	struct stat st;
	char *open_path;
	int own_fd;
	rpmRC rc;

	rpmlog(RPMLOG_DEBUG, "verity: hook fsm_file_prepare %s\n", dest);
	/* fi is NULL for directories rpm creates on its own. */
	if (!vp->active || vp->pkg == NULL || vp->pkg_skip || fi == NULL ||
	    (op & FAF_UNOWNED))
		return RPMRC_OK;
	if (!XFA_CREATING(action) && action != FA_TOUCH)
		return RPMRC_OK;
	if (!wants_verity(&vp->set, mode, rpmfiFFlags(fi)))
		return RPMRC_OK;
	/*
	 * rpm calls prepare for the last name of a hardlink set only; verity
	 * belongs to the inode, so that one call protects every name.
	 */
	sig = file_sig(vp, fi, dest, &rc);
	if (sig == NULL)
		return rc;

	/* rpm 4.18 passes a name relative to the file's directory. */
	open_path = path[0] == '/' ? rstrdup(path) :
		rstrscat(NULL, rpmfiDN(fi), path, NULL);
	/*
	 * A file rpm only touches (unchanged, e.g. with %_minimize_writes)
	 * comes without a descriptor: it is complete, so open it ourselves.
	 */
	own_fd = fd < 0 ? open(open_path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) : -1;
	if (fd < 0)
		fd = own_fd;
	if (fd < 0 || fstat(fd, &st) != 0) {
		rpmlog(verity_fail_level(vp->set.policy), "verity: %s: cannot "
		       "open it: %s\n", dest, strerror(errno));
		rc = fail_or_ok(vp);
	} else if (dev_known(vp, st.st_dev)) {
		rc = vp->set.require_fs_support ? RPMRC_FAIL : RPMRC_OK;
	} else {
		req = (struct verity_enable_req){
			.fd = fd, .st = &st, .open_path = open_path,
			.algo = vp->pkg->algo,
			.sig = sig->der, .sig_len = sig->der_len,
		};
		rc = enable_result(vp, dest, st.st_dev, verity_enable(&req));
	}
	if (own_fd >= 0)
		close(own_fd);
	free(open_path);
	return rc;
}

/* The one symbol rpm looks up: %{__plugindir}/verity.so -> verity_hooks. */
__attribute__((visibility("default")))
struct rpmPluginHooks_s verity_hooks = {
	.init = verity_init,
	.cleanup = verity_cleanup,
	.tsm_pre = verity_tsm_pre,
	.tsm_post = verity_tsm_post,
	.psm_pre = verity_psm_pre,
	.psm_post = verity_psm_post,
	.scriptlet_pre = verity_scriptlet_pre,
	.scriptlet_fork_post = verity_scriptlet_fork_post,
	.scriptlet_post = verity_scriptlet_post,
	.fsm_file_pre = verity_fsm_file_pre,
	.fsm_file_post = verity_fsm_file_post,
	.fsm_file_prepare = verity_fsm_file_prepare,
};
