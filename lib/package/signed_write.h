/* SPDX-License-Identifier: MIT */
/*
 * The package writer, the last stage of signing, shared by sign and inject:
 * the signature entries go into a new signature header, the package is
 * rewritten atomically, and the header alone can be kept for Koji.
 */
#ifndef RPMVERITY_SIGNED_WRITE_H
#define RPMVERITY_SIGNED_WRITE_H

#include <stdint.h>

#include "package.h"
#include "verity_format.h"

/*
 * Write @pkg with @count signature entries (tag 276's strings: rpm's
 * base64, "" for no signature) and @alg to @dest, atomically. When
 * @sighdr_dir is set, also write the new signature header alone to
 * SIGHDR_DIR/<file name of @dest>.sighdr (also atomically), before @dest.
 * Returns 0, or -1 with a message naming the file.
 */
int write_signed_package(const struct package *pkg, char **entries,
			 uint32_t count, const struct verity_hash_alg *alg,
			 const char *dest, const char *sighdr_dir, char **err);

/* The tag 276 string for a DER signature, as rpm encodes it; malloc'ed. */
char *verity_tag_entry(const uint8_t *der, size_t len);

#endif
