/* SPDX-License-Identifier: MIT */
/*
 * IMA signatures by fs-verity digest (sigv3) for a package's files: made
 * from the digests the fs-verity pass computes (no second read), checked
 * by verify, and kept in the signature header as rpm keeps IMA file
 * signatures (tags 274/275), from where rpm's ima.so writes security.ima.
 */
#ifndef RPMVERITY_IMA_SIGS_H
#define RPMVERITY_IMA_SIGS_H

#include <stdint.h>
#include <openssl/x509.h>

#include "signing_key.h"
#include "verity_format.h"

/*
 * The key id the kernel looks the key up by on .ima ("id:<8 hex>"): the
 * last 4 bytes of @cert's subject key identifier. -1 with a message naming
 * @certpath if the certificate has none.
 */
int ima_keyid_of_cert(X509 *cert, const char *certpath, uint32_t *keyid,
		      char **err);

/* The IMA signing key, its certificate and the key id derived from it. */
struct ima_key {
	struct signing_key *key;
	uint32_t keyid;
};

/*
 * Load the key through the same interface as the fs-verity key (so it may
 * be the same key, or any backing signing_key_load knows), and the key id
 * from the certificate. Returns 0, or -1 with a message in *@err.
 */
int ima_key_load(struct ima_key *ik, const char *keypath, const char *certpath,
		 const char *passphrase, char **err);
void ima_key_free(struct ima_key *ik);

/* One package's IMA entries, header file order; NULL means "no signature". */
struct ima_sigs {
	const struct signing_key *key;
	uint32_t keyid;
	const struct verity_hash_alg *alg;
	uint32_t count;
	char **hex;
};

void ima_sigs_init(struct ima_sigs *ima, const struct ima_key *ik,
		   const struct verity_hash_alg *alg, uint32_t count);
void ima_sigs_free(struct ima_sigs *ima);

/*
 * The security.ima value, in hex as tag 274 holds it, for a file whose
 * fs-verity @digest was made with @alg, signed by @key under @keyid.
 * Thread-safe. malloc'ed, or NULL with the reason in *@err (as
 * signing_key_sign_hash() gives it).
 */
char *ima_sign_hex(const struct signing_key *key, uint32_t keyid,
		   const struct verity_hash_alg *alg, const uint8_t *digest,
		   char **err);

/*
 * Sign file @index's fs-verity @digest. Safe from several threads for
 * different indexes. Returns 0, or -1 with the reason in *@err (nothing
 * is set).
 */
int ima_sigs_sign(struct ima_sigs *ima, uint32_t index, const uint8_t *digest,
		  char **err);
/* Entry @dst gets @src's signature (hardlinks share content). */
void ima_sigs_copy(struct ima_sigs *ima, uint32_t dst, uint32_t src);

/*
 * Check one security.ima value against @cert and a file's fs-verity
 * @digest made with @alg. Returns 0, or -1 with the reason in *@why.
 */
int ima_verify_value(X509 *cert, uint32_t keyid,
		     const struct verity_hash_alg *alg, const uint8_t *digest,
		     const uint8_t *value, size_t len, char **why);

#endif
