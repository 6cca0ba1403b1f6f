// SPDX-License-Identifier: MIT
/* The fs-verity facts shared by signer and plugin; see verity_format.h. */
#include "verity_format.h"

#include <string.h>

static const struct verity_hash_alg hash_algs[] = {
	{ .id = 1, .digest_size = 32, .name = "sha256" },
	{ .id = 2, .digest_size = 64, .name = "sha512" },
};

const struct verity_hash_alg *verity_hash_alg_by_id(unsigned int id)
{
	for (size_t i = 0; i < sizeof(hash_algs) / sizeof(hash_algs[0]); i++)
		if (hash_algs[i].id == id)
			return &hash_algs[i];
	return NULL;
}

const struct verity_hash_alg *verity_hash_alg_by_name(const char *name)
{
	for (size_t i = 0; i < sizeof(hash_algs) / sizeof(hash_algs[0]); i++)
		if (strcmp(hash_algs[i].name, name) == 0)
			return &hash_algs[i];
	return NULL;
}

size_t verity_format_digest(const struct verity_hash_alg *alg,
			    const uint8_t *digest,
			    uint8_t out[VERITY_FORMATTED_DIGEST_MAX])
{
	memcpy(out, "FSVerity", 8);
	out[8] = alg->id & 0xff;
	out[9] = alg->id >> 8;
	out[10] = alg->digest_size & 0xff;
	out[11] = alg->digest_size >> 8;
	memcpy(out + 12, digest, alg->digest_size);
	return 12 + (size_t)alg->digest_size;
}

ssize_t verity_sig_length(const uint8_t *entry, size_t len)
{
	size_t hdr, body = 0;

	if (len == 0)
		return 0;
	if (entry[0] != 0x30) {		/* not a DER SEQUENCE */
		for (size_t i = 0; i < len; i++)
			if (entry[i])
				return -1;
		return 0;
	}
	if (len < 2)
		return -1;
	if (entry[1] < 0x80) {		/* short form */
		hdr = 2;
		body = entry[1];
	} else {			/* long form: 1 to 4 length bytes */
		size_t n = entry[1] & 0x7f;

		if (n == 0 || n > 4 || len < 2 + n)
			return -1;
		for (size_t i = 0; i < n; i++)
			body = body << 8 | entry[2 + i];
		hdr = 2 + n;
	}
	if (body > len - hdr || hdr + body > VERITY_MAX_SIG_SIZE)
		return -1;
	return (ssize_t)(hdr + body);
}
