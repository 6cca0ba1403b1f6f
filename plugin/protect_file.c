// SPDX-License-Identifier: MIT
/*
 * The plugin's work on one file, from fsm_file_prepare: which files get
 * fs-verity, finding the file's signature, and what a failure means under
 * the policy. A filesystem without fs-verity is reported once, not once
 * per file.
 */
#include "verity.h"
#include "file_rule.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rpm/rpmstring.h>

bool verity_wants_file(const struct verity_settings *s, mode_t mode,
		       rpmfileAttrs flags)
{
	return verity_file_protected(mode, flags, s->sign_config_files);
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
static const struct file_sig *file_sig(struct verity_plugin *vp,
					      rpmfi fi, const char *dest,
					      rpmRC *rc)
{
	int ix = rpmfiFX(fi);
	const struct file_sig *sig;
	int level = verity_fail_level(vp->set.policy);

	*rc = RPMRC_OK;
	if (ix < 0 || (size_t)ix >= vp->pkg->nfiles)
		return NULL;
	sig = &vp->pkg->verity.files[ix];
	switch (sig->state) {
	case FILE_SIG_OK:
		return sig;
	case FILE_SIG_NONE:
		rpmlog(level, "verity: %s: no fs-verity signature for this "
		       "file in the package\n", dest);
		break;
	case FILE_SIG_MALFORMED:
		rpmlog(level, "verity: %s: %s\n", dest, sig->problem);
		break;
	}
	*rc = verity_fail_or_ok(vp);
	return NULL;
}

/* What a verity_enable() result means under the settings. */
static rpmRC enable_result(struct verity_plugin *vp, const char *dest,
			   dev_t dev, int err)
{
	if (err == 0) {
		rpmlog(RPMLOG_DEBUG, "verity: %s: fs-verity enabled\n", dest);
		vp->n_protected++;
		return RPMRC_OK;
	}
	if (verity_errno_is_unsupported(err))
		return unsupported_fs(vp, dest, dev, err);
	rpmlog(verity_fail_level(vp->set.policy), "verity: %s: %s\n", dest,
	       verity_enable_reason(err));
	return verity_fail_or_ok(vp);
}

void verity_forget_dir(struct verity_plugin *vp)
{
	if (vp->dir_fd >= 0)
		close(vp->dir_fd);
	vp->dir_fd = -1;
	free(vp->dir_name);
	vp->dir_name = NULL;
}

/*
 * The directory dn, open: rpm installs a package's files directory by
 * directory, so it is kept for the next file. Opening a file relative to it
 * walks one path component, not the whole path: the open by full path was
 * the largest part of the plugin's own time (bench/README.md). -1 if it
 * cannot be opened (the caller uses the full path).
 */
static int file_dir(struct verity_plugin *vp, const char *dn)
{
	if (vp->dir_fd >= 0 && strcmp(vp->dir_name, dn) == 0)
		return vp->dir_fd;
	verity_forget_dir(vp);
	vp->dir_name = strdup(dn);
	if (vp->dir_name == NULL)
		return -1;
	vp->dir_fd = open(dn, O_PATH | O_DIRECTORY | O_CLOEXEC);
	return vp->dir_fd;
}

rpmRC verity_protect_file(struct verity_plugin *vp, rpmfi fi, int fd,
			  const char *path, const char *dest, mode_t mode,
			  rpmFsmOp op)
{
	rpmFileAction action = XFO_ACTION(op);
	const struct file_sig *sig;
	struct verity_enable_req req;
	struct stat st;
	char *full_path = NULL;
	const char *name = path;
	int dir_fd = AT_FDCWD;
	int own_fd;
	rpmRC rc;

	/* fi is NULL for directories rpm creates on its own. */
	if (!vp->active || vp->pkg == NULL || vp->pkg_skip || fi == NULL ||
	    (op & FAF_UNOWNED))
		return RPMRC_OK;
	if (!XFA_CREATING(action) && action != FA_TOUCH)
		return RPMRC_OK;
	if (!verity_wants_file(&vp->set, mode, rpmfiFFlags(fi)))
		return RPMRC_OK;
	/*
	 * rpm calls prepare for the last name of a hardlink set only; verity
	 * belongs to the inode, so that one call protects every name.
	 */
	sig = file_sig(vp, fi, dest, &rc);
	if (sig == NULL)
		return rc;

	/* rpm 4.18 passes a name relative to the file's directory. */
	if (path[0] != '/') {
		dir_fd = file_dir(vp, rpmfiDN(fi));
		if (dir_fd < 0) {
			full_path = rstrscat(NULL, rpmfiDN(fi), path, NULL);
			name = full_path;
			dir_fd = AT_FDCWD;
		}
	}
	/*
	 * A file rpm only touches (unchanged, e.g. with %_minimize_writes)
	 * comes without a descriptor: it is complete, so open it ourselves.
	 */
	own_fd = fd < 0 ? openat(dir_fd, name, O_RDONLY | O_NOFOLLOW |
				 O_CLOEXEC) : -1;
	if (fd < 0)
		fd = own_fd;
	if (fd < 0 || fstat(fd, &st) != 0) {
		rpmlog(verity_fail_level(vp->set.policy), "verity: %s: cannot "
		       "open it: %s\n", dest, strerror(errno));
		rc = verity_fail_or_ok(vp);
	} else if (dev_known(vp, st.st_dev)) {
		rc = vp->set.require_fs_support ? RPMRC_FAIL : RPMRC_OK;
	} else {
		req = (struct verity_enable_req){
			.fd = fd, .writer = own_fd < 0,
			.st = &st, .dir_fd = dir_fd, .name = name,
			.algo = vp->pkg->alg->id,
			.sig = sig->bytes, .sig_len = sig->len,
			.kernel_seconds = &vp->kernel_seconds,
		};
		int err = verity_enable(&req);

		rc = enable_result(vp, dest, st.st_dev, err);
		if (err == 0)
			rc = verity_check_signature(vp, fi, fd, sig, dest);
	}
	if (own_fd >= 0)
		close(own_fd);
	free(full_path);
	return rc;
}
