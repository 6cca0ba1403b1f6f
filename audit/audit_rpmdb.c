// SPDX-License-Identifier: MIT
/*
 * An installed package as audit sees it: which of its files the plugin
 * protects, and the fs-verity and IMA signatures the rpmdb kept for them
 * (tags 276/277 and 5090 persist in the installed header).
 */
#include "audit.h"
#include "ima_sig.h"

#include <string.h>
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

int audit_pkg_load(struct audit_pkg *pkg, Header h, bool sign_config_files,
		   char **err)
{
	struct rpmtd_s algo;

	memset(pkg, 0, sizeof(*pkg));
	rpmtdReset(&pkg->sigs);
	rpmtdReset(&pkg->ima);
	pkg->h = h;
	pkg->sign_config_files = sign_config_files;
	pkg->nevra = headerGetAsString(h, RPMTAG_NEVRA);
	pkg->files = rpmfilesNew(NULL, h, RPMTAG_BASENAMES, AUDIT_FI_FLAGS);
	pkg->nfiles = pkg->files ? rpmfilesFC(pkg->files) : 0;
	if (!headerGet(h, VERITY_TAG_SIGNATURES, &pkg->sigs, HEADERGET_MINMEM))
		return 0;
	if (rpmtdType(&pkg->sigs) != RPM_STRING_ARRAY_TYPE ||
	    rpmtdCount(&pkg->sigs) != (rpm_count_t)pkg->nfiles) {
		rasprintf(err, "%s: %u fs-verity signatures for %d files in the rpmdb",
			  pkg->nevra, rpmtdCount(&pkg->sigs), pkg->nfiles);
		return -1;
	}
	pkg->alg = verity_hash_alg_by_id(1);	/* rpm's default */
	if (headerGet(h, VERITY_TAG_ALGO, &algo, HEADERGET_MINMEM)) {
		uint32_t *id = rpmtdGetUint32(&algo);

		pkg->alg = id ? verity_hash_alg_by_id(*id) : NULL;
		if (!pkg->alg)
			rasprintf(err, "%s: unknown fs-verity hash algorithm %u",
				  pkg->nevra, id ? *id : 0);
		rpmtdFreeData(&algo);
		if (!pkg->alg)
			return -1;
	}
	pkg->has_sigs = true;
	/* IMA signatures, when some tool put them there: compared as bytes. */
	if (headerGet(h, RPMTAG_FILESIGNATURES, &pkg->ima, HEADERGET_MINMEM)) {
		if (rpmtdType(&pkg->ima) == RPM_STRING_ARRAY_TYPE &&
		    rpmtdCount(&pkg->ima) == (rpm_count_t)pkg->nfiles)
			pkg->has_ima = true;
		else
			rpmtdFreeData(&pkg->ima);
	}
	return 0;
}

void audit_pkg_free(struct audit_pkg *pkg)
{
	rpmtdFreeData(&pkg->sigs);
	rpmtdFreeData(&pkg->ima);
	rpmfilesFree(pkg->files);
	free(pkg->nevra);
	memset(pkg, 0, sizeof(*pkg));
}

bool audit_pkg_wants(const struct audit_pkg *pkg, int i, const char **why)
{
	mode_t mode = rpmfilesFMode(pkg->files, i);
	rpmfileAttrs flags = rpmfilesFFlags(pkg->files, i);
	rpmfileState state = rpmfilesFState(pkg->files, i);

	/* The plugin's choice (plugin/protect_file.c), seen from the rpmdb. */
	if (S_ISDIR(mode))
		*why = "directory";
	else if (S_ISLNK(mode))
		*why = "symlink";
	else if (!S_ISREG(mode))
		*why = "not a regular file";
	else if (flags & RPMFILE_GHOST)
		*why = "%ghost";
	else if ((flags & RPMFILE_CONFIG) && !(mode & 0111) &&
		 !pkg->sign_config_files)
		*why = "%config";
	else if (state != RPMFILE_STATE_NORMAL && state != RPMFILE_STATE_MISSING)
		*why = state == RPMFILE_STATE_REPLACED ? "replaced by another package" :
		       state == RPMFILE_STATE_NETSHARED ? "netshared" :
		       "not installed";
	else if (!*audit_pkg_sig_b64(pkg, i))
		*why = "no signature";
	else
		return true;
	return false;
}

const char *audit_pkg_sig_b64(const struct audit_pkg *pkg, int i)
{
	const char **entries = pkg->sigs.data;

	return pkg->has_sigs && i >= 0 && i < pkg->nfiles ? entries[i] : "";
}

ssize_t audit_pkg_ima(const struct audit_pkg *pkg, int i, uint8_t *buf,
		      size_t size)
{
	ssize_t n;

	if (!pkg->has_ima || i < 0 || i >= pkg->nfiles)
		return 0;
	n = ima_hex_decode(((const char **)pkg->ima.data)[i], buf, size);
	return n < 0 ? -1 : n;
}
