/* SPDX-License-Identifier: MIT */
/*
 * The digest source, the first stage of signing: everything a package's
 * signatures are made from, as a manifest entry (manifest.h). Its identity
 * (NEVRA and binding digest), and each header file's fs-verity digest or
 * "none", hardlink members and empty files included. `digests` writes it
 * out, `inject` checks signatures against it, `sign` signs as it comes.
 */
#ifndef RPMVERITY_FILE_DIGESTS_H
#define RPMVERITY_FILE_DIGESTS_H

#include <rpm/rpmfiles.h>

#include "manifest.h"
#include "package.h"

/* Where the digests go as they are computed; any callback may be NULL. */
struct digest_sink {
	/*
	 * A file's digest, computed from its content. Runs on the worker
	 * threads (for different files at once) for content in the payload,
	 * and on the caller's thread for the first empty file.
	 */
	int (*digest)(void *ctx, int index, const uint8_t *digest, char **err);
	/*
	 * File @index has the same content as @src, which went through
	 * digest() before (the other members of a hardlink set, further
	 * empty files). Runs on the caller's thread after the payload pass.
	 */
	int (*copy)(void *ctx, int index, int src, char **err);
	void *ctx;
};

/*
 * SHA-256 over the main header as stored in the package: its immutable
 * region, which holds the payload's digest, so it names this build of the
 * package and its payload alone. Equals the signature header's
 * RPMSIGTAG_SHA256 for packages rpmbuild writes.
 */
int package_binding_digest(const struct package *pkg,
			   uint8_t out[BINDING_SIZE], char **err);

/*
 * Check @pkg's payload against its recorded digest, then fill @out (free
 * with manifest_package_free) with @pkg's identity and every file's
 * digest, computed with @jobs threads. Returns 0, or -1 with a message
 * naming the package and, where it applies, the file.
 */
int file_digests_compute(const struct package *pkg, rpmfiles files,
			 const struct verity_hash_alg *alg, int jobs,
			 const struct digest_sink *sink,
			 struct manifest_package *out, char **err);

#endif
