/* SPDX-License-Identifier: MIT */
/*
 * The security.ima value Linux 6.1 appraises files with fs-verity digests
 * by (IMA signature version 3), and the hex form rpm keeps it in.
 *
 * The value crosses a trust boundary twice: the signer writes it into
 * packages, and whatever reads it back (verify, the plugin, a fuzzer) must
 * take any bytes. So the layout lives here once, with a strict parser.
 *
 * Layout (struct signature_v2_hdr, security/integrity/integrity.h):
 *   u8 type       IMA_VERITY_DIGSIG (6)
 *   u8 version    3
 *   u8 hash_algo  enum hash_algo (include/uapi/linux/hash_info.h)
 *   be32 keyid    last 4 bytes of the certificate's subject key identifier
 *   be16 sig_size bytes that follow, exactly (the kernel refuses any other)
 *   sig           over hash_algo(struct ima_file_id), see ima_file_id()
 */
#ifndef RPMVERITY_IMA_SIG_H
#define RPMVERITY_IMA_SIG_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Signature-header tags rpm keeps IMA signatures in (RPMSIGTAG_FILESIGNATURES). */
#define IMA_TAG_SIGNATURES	274	/* string array: hex, one per file */
#define IMA_TAG_SIGLENGTH	275	/* int32: the longest value, in bytes */

#define IMA_VERITY_DIGSIG	6	/* enum evm_ima_xattr_type */
#define IMA_SIG_VERSION_VERITY	3
#define IMA_SIG_HDR_SIZE	9
/* rpmsign's limit for one file signature; RSA-4096 needs 512. */
#define IMA_SIG_MAX_SIZE	1024
#define IMA_VALUE_MAX		(IMA_SIG_HDR_SIZE + IMA_SIG_MAX_SIZE)

/* enum hash_algo values of the digests fs-verity makes. */
#define IMA_HASH_SHA256		4
#define IMA_HASH_SHA512		6

/* struct ima_file_id: type, algorithm, then only the digest bytes in use. */
#define IMA_FILE_ID_MAX		(2 + 64)

struct ima_sig {
	uint8_t type;
	uint8_t version;
	uint8_t hash_algo;
	uint32_t keyid;
	uint16_t sig_size;
	const uint8_t *sig;	/* points into the parsed buffer */
};

enum ima_sig_error {
	IMA_SIG_OK = 0,
	IMA_SIG_ETRUNC = -1,	/* shorter than its header says */
	IMA_SIG_ETYPE = -2,	/* not IMA_VERITY_DIGSIG */
	IMA_SIG_EVERSION = -3,	/* not version 3 */
	IMA_SIG_EALGO = -4,	/* hash algorithm fs-verity does not use */
	IMA_SIG_ESIZE = -5,	/* empty, too large, or trailing bytes */
	IMA_SIG_EHEX = -6,	/* not an even-length lowercase or uppercase hex string */
};

/* What a negative return of the functions below means, in a few words. */
const char *ima_sig_strerror(int err);

/*
 * The enum hash_algo value for an fs-verity algorithm (1 sha256, 2 sha512)
 * and its digest size, or 0 if there is none.
 */
uint8_t ima_hash_algo_of_verity(unsigned int verity_alg);
size_t ima_hash_digest_size(uint8_t hash_algo);

/*
 * Parse a security.ima value as the kernel does for a sigv3 fs-verity
 * signature, and no further: @sig points into @buf. Returns IMA_SIG_OK or
 * a negative enum ima_sig_error. Any bytes are safe input.
 */
int ima_sig_parse(const uint8_t *buf, size_t len, struct ima_sig *sig);

/*
 * Write @sig (header fields and sig_size bytes of sig) to @out. Returns the
 * value's length, or 0 if it does not fit in @cap or sig_size is 0 or above
 * IMA_SIG_MAX_SIZE.
 */
size_t ima_sig_write(const struct ima_sig *sig, uint8_t *out, size_t cap);

/*
 * The bytes the signature covers, before hashing: struct ima_file_id
 * { IMA_VERITY_DIGSIG, @hash_algo, digest } with only the digest's own
 * length, as calc_file_id_hash() in security/integrity/ima/ima_appraise.c
 * hashes it. Returns the length, or 0 for an unknown algorithm.
 */
size_t ima_file_id(uint8_t hash_algo, const uint8_t *digest,
		   uint8_t out[IMA_FILE_ID_MAX]);

/*
 * rpm stores each value as a hex string (lowercase, as rpmhex writes it;
 * hex_encode in hex.h). ima_hex_decode is hex_decode taking either case,
 * with this file's errors: the byte count, or IMA_SIG_EHEX, or
 * IMA_SIG_ESIZE if it does not fit in @cap.
 */
ssize_t ima_hex_decode(const char *hex, uint8_t *out, size_t cap);

/*
 * A whole rpm entry: decode @hex into @buf and parse it. The fuzz target
 * calls this (and ima_sig_parse on raw bytes).
 */
int ima_sig_parse_hex(const char *hex, uint8_t buf[IMA_VALUE_MAX],
		      struct ima_sig *sig);

#endif
