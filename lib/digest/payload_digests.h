/* SPDX-License-Identifier: MIT */
/*
 * Computing every file's fs-verity digest from a package payload, with
 * decompression on the calling thread overlapping hashing (and whatever the
 * caller does with each digest, such as signing) on worker threads, in
 * bounded memory whatever the payload size.
 */
#ifndef RPMVERITY_PAYLOAD_DIGESTS_H
#define RPMVERITY_PAYLOAD_DIGESTS_H

#include <stdint.h>
#include <rpm/rpmfiles.h>

#include "package.h"
#include "verity_format.h"

/*
 * Called on a worker thread with the digest of header file @index, once for
 * every regular file with content in the payload (for a hardlink set: once,
 * for the member that carries the content). Calls for different files run
 * concurrently. Return 0, or -1 with a message in *@err to stop the run.
 */
typedef int (*file_digest_fn)(void *ctx, int index, const uint8_t *digest,
			      char **err);

/*
 * Read @pkg's payload and hand each file's digest to @fn, using @workers
 * threads besides the caller's, and check the compressed payload against
 * the main header's digest of it (package_check_payload) meanwhile.
 * Returns 0, or -1 with a message (naming the package and, where it
 * applies, the file) in *@err. A failed check fails the call, but @fn may
 * have had digests of the corrupted package by then: keep what it makes
 * until this returns 0.
 */
int payload_digests(const struct package *pkg, rpmfiles files,
		    const struct verity_hash_alg *alg, int workers,
		    file_digest_fn fn, void *ctx, char **err);

/* The fs-verity digest of an empty file, which has no payload content. */
int empty_file_digest(const struct verity_hash_alg *alg,
		      uint8_t digest[VERITY_MAX_DIGEST_SIZE]);

#endif
