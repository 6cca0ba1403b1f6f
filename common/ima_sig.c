// SPDX-License-Identifier: MIT
/* The IMA sigv3 value and its hex form; see ima_sig.h. */
#include "ima_sig.h"
#include "big_endian.h"
#include "hex.h"

#include <string.h>

const char *ima_sig_strerror(int err)
{
	switch (err) {
	case IMA_SIG_OK:
		return "valid";
	case IMA_SIG_ETRUNC:
		return "shorter than an IMA signature header";
	case IMA_SIG_ETYPE:
		return "not an fs-verity IMA signature (type is not 6, IMA_VERITY_DIGSIG)";
	case IMA_SIG_EVERSION:
		return "signature version is not 3";
	case IMA_SIG_EALGO:
		return "hash algorithm is neither sha256 nor sha512";
	case IMA_SIG_ESIZE:
		return "signature size does not match the value's length";
	case IMA_SIG_EHEX:
		return "not a hex string";
	default:
		return "unknown error";
	}
}

uint8_t ima_hash_algo_of_verity(unsigned int verity_alg)
{
	switch (verity_alg) {
	case 1:
		return IMA_HASH_SHA256;
	case 2:
		return IMA_HASH_SHA512;
	default:
		return 0;
	}
}

size_t ima_hash_digest_size(uint8_t hash_algo)
{
	switch (hash_algo) {
	case IMA_HASH_SHA256:
		return 32;
	case IMA_HASH_SHA512:
		return 64;
	default:
		return 0;
	}
}

int ima_sig_parse(const uint8_t *buf, size_t len, struct ima_sig *sig)
{
	memset(sig, 0, sizeof(*sig));
	if (len < IMA_SIG_HDR_SIZE)
		return IMA_SIG_ETRUNC;
	if (buf[0] != IMA_VERITY_DIGSIG)
		return IMA_SIG_ETYPE;
	if (buf[1] != IMA_SIG_VERSION_VERITY)
		return IMA_SIG_EVERSION;
	if (!ima_hash_digest_size(buf[2]))
		return IMA_SIG_EALGO;
	sig->type = buf[0];
	sig->version = buf[1];
	sig->hash_algo = buf[2];
	sig->keyid = be32(buf + 3);
	sig->sig_size = be16(buf + 7);
	/* asymmetric_verify() wants the size to cover exactly the rest. */
	if (sig->sig_size == 0 || sig->sig_size > IMA_SIG_MAX_SIZE ||
	    sig->sig_size != len - IMA_SIG_HDR_SIZE)
		return IMA_SIG_ESIZE;
	sig->sig = buf + IMA_SIG_HDR_SIZE;
	return IMA_SIG_OK;
}

size_t ima_sig_write(const struct ima_sig *sig, uint8_t *out, size_t cap)
{
	size_t len = IMA_SIG_HDR_SIZE + (size_t)sig->sig_size;

	if (sig->sig_size == 0 || sig->sig_size > IMA_SIG_MAX_SIZE || len > cap)
		return 0;
	out[0] = sig->type;
	out[1] = sig->version;
	out[2] = sig->hash_algo;
	out[3] = (uint8_t)(sig->keyid >> 24);
	out[4] = (uint8_t)(sig->keyid >> 16);
	out[5] = (uint8_t)(sig->keyid >> 8);
	out[6] = (uint8_t)sig->keyid;
	out[7] = (uint8_t)(sig->sig_size >> 8);
	out[8] = (uint8_t)sig->sig_size;
	memcpy(out + IMA_SIG_HDR_SIZE, sig->sig, sig->sig_size);
	return len;
}

size_t ima_file_id(uint8_t hash_algo, const uint8_t *digest,
		   uint8_t out[IMA_FILE_ID_MAX])
{
	size_t n = ima_hash_digest_size(hash_algo);

	if (!n)
		return 0;
	out[0] = IMA_VERITY_DIGSIG;
	out[1] = hash_algo;
	memcpy(out + 2, digest, n);
	return 2 + n;
}

ssize_t ima_hex_decode(const char *hex, uint8_t *out, size_t cap)
{
	ssize_t n = hex_decode(hex, out, cap, 1);

	return n == HEX_EBAD ? IMA_SIG_EHEX : n == HEX_ELONG ? IMA_SIG_ESIZE : n;
}

int ima_sig_parse_hex(const char *hex, uint8_t buf[IMA_VALUE_MAX],
		      struct ima_sig *sig)
{
	ssize_t n = ima_hex_decode(hex, buf, IMA_VALUE_MAX);

	if (n < 0) {
		memset(sig, 0, sizeof(*sig));
		return (int)n;
	}
	return ima_sig_parse(buf, (size_t)n, sig);
}
