/* SPDX-License-Identifier: MIT */
/* Reading and replacing the verity tags of a signature header. */
#ifndef RPMVERITY_VERITY_TAGS_H
#define RPMVERITY_VERITY_TAGS_H

#include <stdint.h>
#include <rpm/header.h>

/*
 * A new signature header: @old without any verity tags and, when @sigs is
 * not NULL, with @count signature entries (header file order) and @algo.
 * Every other tag, GPG signatures and digests included, stays as it was.
 */
Header verity_tags_replace(Header old, char **sigs, uint32_t count,
			   uint32_t algo);

int verity_tags_present(Header sigh);

#endif
