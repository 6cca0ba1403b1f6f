/* SPDX-License-Identifier: MIT */
/* Reading and replacing the IMA file signature tags of a signature header. */
#ifndef RPMVERITY_IMA_TAGS_H
#define RPMVERITY_IMA_TAGS_H

#include <rpm/header.h>

#include "ima_sigs.h"
#include "package.h"

/*
 * A copy of the signature header @sigh with the IMA tags (274, 275)
 * replaced by @ima's entries, or removed when @ima is NULL. Every other
 * tag stays as it was. NULL on failure.
 */
Header ima_tags_replace(Header sigh, const struct ima_sigs *ima);

/* Whether @sigh has IMA file signatures at all. */
int ima_tags_present(Header sigh);

/*
 * Whether a new signing without IMA keys drops @pkg's IMA signatures, and
 * if so which, in words (NULL: they stay). Any sigv3 (fs-verity digest)
 * signature belongs to the fs-verity signing a new `sign` replaces;
 * rpmsign --signfiles makes sigv2 ones over the file hash, which stay
 * valid. Malformed tags or entries are dropped too, not carried on.
 */
const char *ima_tags_stale(const struct package *pkg);

/*
 * The IMA tags go into @pkg's own signature header, before the package
 * writer builds the new one from it: @ima's entries, or none when there
 * are sigv3 ones from an earlier signing and no IMA signatures now (then
 * it says so on stdout). sign and inject share it, so they write the same
 * bytes. Returns 0, or -1 with a message in *@err.
 */
int ima_tags_store(struct package *pkg, const struct ima_sigs *ima,
		   char **err);

#endif
