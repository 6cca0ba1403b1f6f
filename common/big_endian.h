/* SPDX-License-Identifier: MIT */
/*
 * Big-endian numbers read from bytes, as rpm's headers, the IMA signature
 * header and certificates' key identifiers store them. Once, here, for
 * the library, the plugin and the audit's code that links no librpm.
 */
#ifndef RPMVERITY_BIG_ENDIAN_H
#define RPMVERITY_BIG_ENDIAN_H

#include <stdint.h>

static inline uint16_t be16(const void *p)
{
	const uint8_t *b = p;

	return (uint16_t)(b[0] << 8 | b[1]);
}

static inline uint32_t be32(const void *p)
{
	const uint8_t *b = p;

	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
	       (uint32_t)b[2] << 8 | b[3];
}

#endif
