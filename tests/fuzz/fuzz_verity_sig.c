// SPDX-License-Identifier: MIT
/*
 * Fuzz target: one signature entry as the plugin and the signer decode it
 * (common/verity_format.c: verity_sig_length, verity_sig_is_signed_data)
 * and as `rpm-verity verify` checks it with OpenSSL (verify_signature).
 * Input: one byte of fs-verity hash algorithm, the 64-byte digest the
 * signature should be over (only the algorithm's size of it is used), then
 * the entry as rpm's decoder returns it (DER, maybe zero-padded).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/x509.h>

#include "fuzz.h"
#include "signing_key.h"
#include "verity_format.h"

static X509 *cert;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char *err = NULL;

	(void)argc;
	(void)argv;
	cert = load_certificate(FUZZ_CERT, &err);
	if (!cert)
		FUZZ_FAIL("%s", err);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct verity_hash_alg *alg;
	const uint8_t *entry = data + 1 + VERITY_MAX_DIGEST_SIZE;
	size_t len = size - 1 - VERITY_MAX_DIGEST_SIZE;
	uint8_t *copy;
	ssize_t der_len;
	char *why = NULL;

	if (size < 1 + VERITY_MAX_DIGEST_SIZE)
		return 0;
	alg = verity_hash_alg_by_id(data[0]);
	if (!alg)
		return 0;
	/* An exact-size buffer, so ASan sees a read past the entry's end. */
	copy = malloc(len ? len : 1);
	if (!copy)
		return 0;
	memcpy(copy, entry, len);
	der_len = verity_sig_length(copy, len);
	if (der_len < -1 || der_len > (ssize_t)len)
		FUZZ_FAIL("verity_sig_length says %zd for %zu bytes", der_len, len);
	if (der_len > 0) {
		bool shaped = verity_sig_is_signed_data(copy, (size_t)der_len);

		if (verify_signature(cert, alg, data + 1, copy, (size_t)der_len,
				     &why) == 0 && !shaped)
			FUZZ_FAIL("a signature OpenSSL accepts is not shaped like one");
		free(why);
	}
	free(copy);
	return 0;
}
