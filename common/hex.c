// SPDX-License-Identifier: MIT
/* See hex.h. */
#include "hex.h"

void hex_encode(const uint8_t *in, size_t len, char *out)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < len; i++) {
		out[2 * i] = digits[in[i] >> 4];
		out[2 * i + 1] = digits[in[i] & 15];
	}
	out[2 * len] = '\0';
}

static int nibble(char c, int any_case)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (any_case && c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

ssize_t hex_decode(const char *hex, uint8_t *out, size_t cap, int any_case)
{
	size_t n = 0;

	for (; hex[0]; hex += 2) {
		int hi = nibble(hex[0], any_case);
		int lo = hi < 0 ? -1 : nibble(hex[1], any_case);

		if (hi < 0 || lo < 0)
			return HEX_EBAD;	/* also an odd length */
		if (n == cap)
			return HEX_ELONG;
		out[n++] = (uint8_t)(hi << 4 | lo);
	}
	return (ssize_t)n;
}
