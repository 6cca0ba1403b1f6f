// SPDX-License-Identifier: MIT
/*
 * verity.so: the rpm transaction plugin (rpm 4.18, 4.20 and 6.x) that
 * protects installed files with the fs-verity signatures their package
 * carries. The hooks are here;
 * protect_file.c does the work on each file, settings.c reads the macros,
 * keyring.c loads certificates (through the code rpm-verity-load-certs
 * shares), boot_loader.c looks for a boot-time loader and enable.c talks to
 * the kernel; a package's signatures are decoded by common/package_sigs.c.
 *
 * Where things are decided: certificates are loaded in tsm_pre (before
 * rpm enters --root); package-level problems (no signatures, unknown
 * algorithm, entry count) in psm_pre, before rpm unpacks anything; file
 * problems in fsm_file_prepare, where a failure makes rpm remove every file
 * of the package that has not reached its final name.
 *
 * Every hook logs one "verity: hook NAME" line at debug level as it starts,
 * so `rpm -vv` shows which of our functions rpm called for which slot; the
 * hooks that have no work (scriptlets) exist for that alone. File pre and
 * post keep rpm-verity-enforcer's table current (enforcer_bind.c).
 */
#include "rpm_plugin_api.h"
#include "verity.h"

#include <stdlib.h>
#include <string.h>

#include <rpm/rpmfiles.h>
#include <rpm/rpmte.h>
#include <rpm/rpmts.h>

static void trace(const char *hook)
{
	rpmlog(RPMLOG_DEBUG, "verity: hook %s\n", hook);
}

static struct verity_plugin *state(rpmPlugin plugin)
{
	return rpmPluginGetData(plugin);
}

static rpmRC verity_init(rpmPlugin plugin, rpmts ts)
{
	struct verity_plugin *vp = calloc(1, sizeof(*vp));

	(void)ts;
	trace("init");
	if (vp == NULL)
		return RPMRC_FAIL;
	vp->dir_fd = -1;
	vp->table_fd = -1;
	rpmPluginSetData(plugin, vp);
	if (!verity_settings_load(&vp->set))
		return RPMRC_FAIL;
	rpmlog(RPMLOG_DEBUG, "verity: policy %s, certificates \"%s\"\n",
	       verity_policy_name(vp->set.policy), vp->set.certs);
	return RPMRC_OK;
}

static void forget_package(struct verity_plugin *vp)
{
	package_sigs_free(vp->pkg);
	vp->pkg = NULL;
	free(vp->nevra);
	vp->nevra = NULL;
}

static void verity_cleanup(rpmPlugin plugin)
{
	struct verity_plugin *vp = state(plugin);

	if (vp == NULL)
		return;
	forget_package(vp);
	verity_forget_dir(vp);
	verity_enforcer_stop(vp);
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

/*
 * Whether this transaction needs us, and if so the certificates loaded;
 * the enforcer's table for installs and erases alike.
 */
static rpmRC start_transaction(struct verity_plugin *vp, rpmts ts)
{
	int level = verity_fail_level(vp->set.policy);
	bool runs = vp->set.policy != VERITY_POLICY_OFF &&
		    !(rpmtsFlags(ts) & (RPMTRANS_FLAG_TEST |
					RPMTRANS_FLAG_JUSTDB));
	bool kernel_checks = true;

	vp->active = runs && installs_packages(ts);
	if (!runs)
		return RPMRC_OK;
	if (vp->active) {
		switch (verity_keyring_setup(&vp->set, level)) {
		case VERITY_KEYRING_OK:
			break;
		case VERITY_KEYRING_UNSUPPORTED:
			kernel_checks = false;
			if (!vp->set.require_fs_support)
				break;
			rpmlog(RPMLOG_ERR, "verity: this kernel has no "
			       ".fs-verity keyring (no fs-verity signature "
			       "support); refused by "
			       "%%_fsverity_require_fs_support\n");
			return RPMRC_FAIL;
		case VERITY_KEYRING_FAILED:
			if (verity_fail_or_ok(vp) != RPMRC_OK)
				return RPMRC_FAIL;
			break;
		}
	}
	return verity_enforcer_start(vp, ts, kernel_checks);
}

static rpmRC verity_tsm_pre(rpmPlugin plugin, rpmts ts)
{
	struct verity_plugin *vp = state(plugin);
	double start = verity_seconds();
	rpmRC rc;

	trace("tsm_pre");
	vp->n_protected = 0;
	vp->plugin_seconds = vp->kernel_seconds = 0;
	rc = start_transaction(vp, ts);
	vp->plugin_seconds += verity_seconds() - start;
	return rc;
}

/*
 * What protecting the files cost, for whoever asked: the plugin's own time
 * beyond the kernel's is what it adds to an install on its own account.
 */
static void summary(const struct verity_plugin *vp)
{
	rpmlog(vp->set.summary ? RPMLOG_NOTICE : RPMLOG_DEBUG,
	       "verity: %lu files protected; %.3f s in the plugin, %.3f s of "
	       "it in FS_IOC_ENABLE_VERITY\n", vp->n_protected,
	       vp->plugin_seconds, vp->kernel_seconds);
}

/*
 * The keyring starts empty at every boot and the kernel checks each signed
 * file again at its first open: files protected on a system that does not
 * load the certificates at boot stop reading after the next reboot.
 */
static void warn_without_boot_loader(const struct verity_plugin *vp, rpmts ts)
{
	if (vp->n_protected == 0 || !vp->set.boot_loader_warning ||
	    verity_boot_loader_installed(rpmtsRootDir(ts)))
		return;
	rpmlog(RPMLOG_WARNING, "verity: no boot-time certificate loader "
	       "(rpm-verity-load-certs) under %s: protected files will be "
	       "unreadable after reboot until the certificate is loaded\n",
	       rpmtsRootDir(ts) ? rpmtsRootDir(ts) : "/");
}

static rpmRC verity_tsm_post(rpmPlugin plugin, rpmts ts, int res)
{
	struct verity_plugin *vp = state(plugin);

	(void)res;
	trace("tsm_post");
	if (vp->active) {
		summary(vp);
		warn_without_boot_loader(vp, ts);
	}
	free(vp->unsupported);
	vp->unsupported = NULL;
	vp->n_unsupported = 0;
	vp->active = false;
	verity_enforcer_stop(vp);
	return RPMRC_OK;
}

/* The first file of the package this plugin would protect (malloc'ed). */
static char *first_protectable_file(const struct verity_settings *s,
				    rpmfiles files)
{
	int n = rpmfilesFC(files);

	for (int i = 0; i < n; i++)
		if (verity_wants_file(s, rpmfilesFMode(files, i),
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
		       "%%_fsverity_policy enforce\n", vp->nevra, file);
		rc = RPMRC_FAIL;
	} else {
		rpmlog(RPMLOG_WARNING, "verity: %s: package has no fs-verity "
		       "signatures; its files are installed without "
		       "fs-verity\n", vp->nevra);
	}
	free(file);
	return rc;
}

/* A package about to be installed: its signatures decoded and judged. */
static rpmRC read_package(struct verity_plugin *vp, rpmte te)
{
	int level = verity_fail_level(vp->set.policy);
	Header h;

	forget_package(vp);
	vp->pkg_skip = false;
	if (!vp->active || rpmteType(te) != TR_ADDED)
		return RPMRC_OK;

	/* rpm hands us the main header, where 274/275 are 5090/5091. */
	h = rpmteHeader(te);
	vp->nevra = strdup(rpmteNEVRA(te));
	vp->pkg = h && vp->nevra ? package_sigs_decode(h,
			PACKAGE_SIGS_INSTALLED, package_sigs_file_count(h)) :
			NULL;
	headerFree(h);
	if (vp->pkg == NULL) {
		rpmlog(RPMLOG_ERR, "verity: %s: cannot read the package "
		       "header\n", rpmteNEVRA(te));
		return RPMRC_FAIL;
	}
	if (vp->pkg->verity.problem) {
		rpmlog(level, "verity: %s: %s\n", vp->nevra,
		       vp->pkg->verity.problem);
		vp->pkg_skip = true;
		return verity_fail_or_ok(vp);
	}
	if (!vp->pkg->verity.present)
		return unsigned_package(vp, te);
	verity_enforcer_package(vp, vp->pkg->nfiles);
	return RPMRC_OK;
}

static rpmRC verity_psm_pre(rpmPlugin plugin, rpmte te)
{
	struct verity_plugin *vp = state(plugin);
	double start = verity_seconds();
	rpmRC rc;

	trace("psm_pre");
	rc = read_package(vp, te);
	vp->plugin_seconds += verity_seconds() - start;
	return rc;
}

static rpmRC verity_psm_post(rpmPlugin plugin, rpmte te, int res)
{
	struct verity_plugin *vp = state(plugin);

	(void)te;
	(void)res;
	trace("psm_post");
	forget_package(vp);
	verity_forget_dir(vp);
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
	(void)mode;
	trace("fsm_file_pre");
	verity_enforcer_file_pre(state(plugin), fi, path, op);
	return RPMRC_OK;
}

static rpmRC verity_fsm_file_post(rpmPlugin plugin, rpmfi fi, const char *path,
				  mode_t mode, rpmFsmOp op, int res)
{
	(void)mode;
	trace("fsm_file_post");
	verity_enforcer_file_post(state(plugin), fi, path, op, res);
	return RPMRC_OK;
}

static rpmRC verity_fsm_file_prepare(rpmPlugin plugin, rpmfi fi, int fd,
				     const char *path, const char *dest,
				     mode_t mode, rpmFsmOp op)
{
	struct verity_plugin *vp = state(plugin);
	double start = verity_seconds();
	rpmRC rc;

	rpmlog(RPMLOG_DEBUG, "verity: hook fsm_file_prepare %s\n", dest);
	rc = verity_protect_file(vp, fi, fd, path, dest, mode, op);
	vp->plugin_seconds += verity_seconds() - start;
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
