/* SPDX-License-Identifier: MIT */
/*
 * Hex, the one encoder and decoder: manifests and signature files write
 * digests in it, rpm keeps IMA signatures in it (lowercase, as rpmhex
 * writes them), and the audit reads those back.
 */
#ifndef RPMVERITY_HEX_H
#define RPMVERITY_HEX_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define HEX_EBAD	(-1)	/* not hex, or an odd length */
#define HEX_ELONG	(-2)	/* more bytes than fit */

/* Lowercase hex of @len bytes into @out: 2 * @len characters and a NUL. */
void hex_encode(const uint8_t *in, size_t len, char *out);

/*
 * Decode the whole string @hex into @out (at most @cap bytes): lowercase
 * only unless @any_case. Returns the byte count, HEX_EBAD or HEX_ELONG.
 */
ssize_t hex_decode(const char *hex, uint8_t *out, size_t cap, int any_case);

#endif
