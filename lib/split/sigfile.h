/* SPDX-License-Identifier: MIT */
/*
 * The signature file: what the signing side sends back. The manifest's
 * shape (manifest.h) with each file's signature after its digest, so the
 * build side can check every signature before it writes a package.
 */
#ifndef RPMVERITY_SIGFILE_H
#define RPMVERITY_SIGFILE_H

#include <stddef.h>
#include <stdint.h>

#include "manifest.h"

/*
 * The DER bytes of @b64 (one line of standard base64 with padding), at
 * most VERITY_MAX_SIG_SIZE of them; malloc'ed, or NULL if it is not that.
 */
uint8_t *sigfile_decode(const char *b64, size_t *len);

/* One line of base64 for @der; malloc'ed. */
char *sigfile_encode(const uint8_t *der, size_t len);

#endif
