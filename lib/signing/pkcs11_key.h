/* SPDX-License-Identifier: MIT */
/*
 * Private keys that live in a PKCS#11 token (an HSM, a smart card, SoftHSM,
 * a signing server's module), named by an RFC 7512 "pkcs11:" URI. The key
 * never leaves the token: OpenSSL gets an EVP_PKEY whose private operations
 * the module performs, through libp11.
 */
#ifndef RPMVERITY_PKCS11_KEY_H
#define RPMVERITY_PKCS11_KEY_H

#include <pthread.h>
#include <stdbool.h>
#include <openssl/evp.h>

struct pkcs11_key;

/* Whether @name is a PKCS#11 URI rather than a file name. */
bool is_pkcs11_uri(const char *name);

/*
 * Open the token and find the private key @uri names. Understood: the path
 * attributes token, object, id, serial, manufacturer, model and type
 * (which must be "private" when given), and the query attributes pin-value,
 * pin-source (a file holding the PIN) and module-path (default: p11-kit's
 * proxy, which reaches every module the system registers). @pin, when not
 * NULL, is used when the URI carries none. Returns the key (owned by
 * *@handle, valid until pkcs11_key_free), or NULL with a message naming the
 * URI (its PIN left out) and what was wrong: the module, the token, the
 * PIN or the object.
 */
EVP_PKEY *pkcs11_key_load(const char *uri, const char *pin,
			  struct pkcs11_key **handle, char **err);
void pkcs11_key_free(struct pkcs11_key *handle);

/*
 * The mutex every key of @handle's module signs under, one request at a
 * time (keys on one token share its sessions); valid until the handle is
 * freed.
 */
pthread_mutex_t *pkcs11_key_lock(struct pkcs11_key *handle);

/* @uri with any pin-value replaced by "...", for messages; malloc'ed. */
char *pkcs11_uri_for_display(const char *uri);

#endif
