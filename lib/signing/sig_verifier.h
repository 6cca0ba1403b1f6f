/* SPDX-License-Identifier: MIT */
/*
 * Checking fs-verity signatures against a certificate, fast enough to do
 * for every installed file (rpm-verity audit) as well as every packaged one
 * (rpm-verity verify): the certificate's identity and its public key
 * context are prepared once, and a signature costs a DER walk, a hash and
 * one public-key operation, what `openssl speed` counts.
 */
#ifndef RPMVERITY_SIG_VERIFIER_H
#define RPMVERITY_SIG_VERIFIER_H

#include <stddef.h>
#include <stdint.h>
#include <openssl/evp.h>
#include <openssl/x509.h>

#include "verity_format.h"

struct sig_verifier;

/* A verifier for signatures by @cert (which it references). NULL: no memory. */
struct sig_verifier *sig_verifier_new(X509 *cert);
void sig_verifier_free(struct sig_verifier *v);

/*
 * Whether the signature @der (walked into @parts by verity_sig_parts())
 * names @v's certificate as its signer (issuer and serial number).
 */
bool sig_verifier_signed_by(const struct sig_verifier *v,
			    const struct verity_sig_parts *parts,
			    const uint8_t *der, size_t len);

/*
 * Whether the signature is valid by @v's key over @digest, formatted as
 * fs-verity signs it. Returns 0, or -1 with the reason in *@why.
 */
int sig_verifier_check(struct sig_verifier *v,
		       const struct verity_sig_parts *parts,
		       const uint8_t *der, size_t len,
		       const struct verity_hash_alg *alg,
		       const uint8_t *digest, char **why);

/*
 * A digest index without the files' contents (rpm-verity audit --unowned):
 * an RSA PKCS#1 v1.5 signature without signed attributes gives back, with
 * the public key, the hash it signs, which is the hash of the formatted
 * fs-verity digest. sig_verifier_md_name() names that hash (OpenSSL's
 * name, NULL if unknown); sig_verifier_recover() recovers it from a
 * signature by @v and returns its length, or 0 when the key is not RSA
 * (ECDSA signs nothing recoverable) or the signature does not decode;
 * sig_verifier_signed_hash() computes it for a measured @digest, so the
 * two can be compared. An equal pair is a valid signature over @digest.
 */
const char *sig_verifier_md_name(const struct verity_sig_parts *parts);
size_t sig_verifier_recover(struct sig_verifier *v,
			    const struct verity_sig_parts *parts,
			    uint8_t out[EVP_MAX_MD_SIZE]);
size_t sig_verifier_signed_hash(const char *md_name,
				const struct verity_hash_alg *alg,
				const uint8_t *digest,
				uint8_t out[EVP_MAX_MD_SIZE]);

#endif
