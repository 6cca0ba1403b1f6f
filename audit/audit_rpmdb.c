// SPDX-License-Identifier: MIT
/*
 * An installed package as audit sees it: which of its files the plugin
 * protects, and the fs-verity and IMA signatures the rpmdb kept for them
 * (tags 276/277 and 5090 persist in the installed header), read by the
 * common decoder (common/package_sigs.c).
 */
#include "audit.h"
#include "file_rule.h"

#include <string.h>
#include <sys/stat.h>
#include <rpm/header.h>
#include <rpm/rpmstring.h>
#include <rpm/rpmtag.h>

/*
 * Only what audit reads: names, modes, flags and states. rpm's query set
 * would also decode every file's digest and fs-verity signature up front.
 */
#define AUDIT_FI_FLAGS \
	(RPMFI_FLAGS_QUERY | RPMFI_NOFILEUSER | RPMFI_NOFILEGROUP | \
	 RPMFI_NOFILESIZES | RPMFI_NOFILECAPS | RPMFI_NOFILELINKTOS | \
	 RPMFI_NOFILEDIGESTS | RPMFI_NOFILEMTIMES | RPMFI_NOFILERDEVS | \
	 RPMFI_NOFILEINODES | RPMFI_NOFILESIGNATURES | RPMFI_NOVERITYSIGNATURES)

/*
 * --unowned's view: names and modes, nothing else. Which paths are owned
 * is all a clean system needs; the signatures are decoded (audit_pkg_load)
 * only when a signed file turns up at a path no package owns.
 */
#define AUDIT_NAMES_FI_FLAGS \
	((RPMFI_FLAGS_ONLY_FILENAMES & ~RPMFI_NOFILEMODES) | \
	 RPMFI_NOFILESIGNATURES | RPMFI_NOVERITYSIGNATURES)

void audit_pkg_load_names(struct audit_pkg *pkg, Header h, rpmstrPool pool)
{
	memset(pkg, 0, sizeof(*pkg));
	pkg->h = h;
	pkg->files = rpmfilesNew(pool, h, RPMTAG_BASENAMES,
				 AUDIT_NAMES_FI_FLAGS);
	pkg->nfiles = pkg->files ? rpmfilesFC(pkg->files) : 0;
}

int audit_pkg_load(struct audit_pkg *pkg, Header h, rpmstrPool pool,
		   bool sign_config_files, char **err)
{
	memset(pkg, 0, sizeof(*pkg));
	pkg->h = h;
	pkg->sign_config_files = sign_config_files;
	pkg->nevra = headerGetAsString(h, RPMTAG_NEVRA);
	pkg->files = rpmfilesNew(pool, h, RPMTAG_BASENAMES, AUDIT_FI_FLAGS);
	pkg->nfiles = pkg->files ? rpmfilesFC(pkg->files) : 0;
	pkg->sigs = package_sigs_decode(h, PACKAGE_SIGS_INSTALLED,
					(size_t)pkg->nfiles);
	if (!pkg->sigs) {
		rasprintf(err, "%s: out of memory", pkg->nevra);
		return -1;
	}
	if (pkg->sigs->verity.problem) {
		rasprintf(err, "%s: %s in the rpmdb", pkg->nevra,
			  pkg->sigs->verity.problem);
		return -1;
	}
	/* IMA signatures, when some tool put them there: compared as bytes. */
	pkg->has_ima = pkg->sigs->ima.present && !pkg->sigs->ima.problem;
	if (!pkg->sigs->verity.present)
		return 0;
	pkg->alg = pkg->sigs->alg;
	pkg->has_sigs = true;
	return 0;
}

void audit_pkg_free(struct audit_pkg *pkg)
{
	package_sigs_free(pkg->sigs);
	rpmfilesFree(pkg->files);
	free(pkg->nevra);
	memset(pkg, 0, sizeof(*pkg));
}

bool audit_pkg_wants(const struct audit_pkg *pkg, int i, const char **why)
{
	mode_t mode = rpmfilesFMode(pkg->files, i);
	rpmfileAttrs flags = rpmfilesFFlags(pkg->files, i);
	rpmfileState state = rpmfilesFState(pkg->files, i);

	/* The plugin's choice (common/file_rule.h), seen from the rpmdb. */
	if (!verity_file_protected(mode, flags, pkg->sign_config_files))
		*why = S_ISDIR(mode) ? "directory" :
		       S_ISLNK(mode) ? "symlink" :
		       !S_ISREG(mode) ? "not a regular file" :
		       (flags & RPMFILE_GHOST) ? "%ghost" : "%config";
	else if (state != RPMFILE_STATE_NORMAL && state != RPMFILE_STATE_MISSING)
		*why = state == RPMFILE_STATE_REPLACED ? "replaced by another package" :
		       state == RPMFILE_STATE_NETSHARED ? "netshared" :
		       "not installed";
	else if (audit_pkg_sig(pkg, i)->state == FILE_SIG_NONE)
		*why = "no signature";
	else
		return true;
	return false;
}

const struct file_sig *audit_pkg_sig(const struct audit_pkg *pkg, int i)
{
	static const struct file_sig none = { .state = FILE_SIG_NONE };

	return pkg->has_sigs && i >= 0 && i < pkg->nfiles ?
		&pkg->sigs->verity.files[i] : &none;
}

ssize_t audit_pkg_ima(const struct audit_pkg *pkg, int i, uint8_t *buf,
		      size_t size)
{
	const struct file_sig *f;

	if (!pkg->has_ima || i < 0 || i >= pkg->nfiles)
		return 0;
	f = &pkg->sigs->ima.files[i];
	if (f->state == FILE_SIG_NONE)
		return 0;
	if (f->state != FILE_SIG_OK || f->len > size)
		return -1;
	memcpy(buf, f->bytes, f->len);
	return (ssize_t)f->len;
}
