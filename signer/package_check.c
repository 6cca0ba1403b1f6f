// SPDX-License-Identifier: MIT
/*
 * Payload integrity: the main header records a digest of the compressed
 * payload, so one cheap pass over the file tells a corrupted package from a
 * good one before anything is signed.
 */
#include "package.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <rpm/rpmcrypto.h>
#include <rpm/rpmstring.h>
#include <rpm/rpmtag.h>
#include <rpm/rpmtd.h>

int package_check_payload(const struct package *pkg, char **err)
{
	const char *want = headerGetString(pkg->h, RPMTAG_PAYLOADDIGEST);
	struct rpmtd_s td;
	const uint32_t *algo;
	DIGEST_CTX ctx;
	char *got = NULL;
	size_t bufsize = 1 << 20;
	uint8_t *buf;
	off_t off = pkg->payload_start;
	int rc = -1;

	if (!want)
		return 0;
	if (!headerGet(pkg->h, RPMTAG_PAYLOADDIGESTALGO, &td, HEADERGET_MINMEM))
		return 0;
	algo = rpmtdGetUint32(&td);
	ctx = algo ? rpmDigestInit((int)*algo, RPMDIGEST_NONE) : NULL;
	rpmtdFreeData(&td);
	buf = malloc(bufsize);
	if (!ctx || !buf) {
		rasprintf(err, "%s: cannot check payload digest", pkg->path);
		goto out;
	}
	while (off < pkg->size) {
		ssize_t n = pread(pkg->fd, buf, bufsize, off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rasprintf(err, "%s: cannot read payload: %s", pkg->path,
				  n < 0 ? strerror(errno) : "unexpected end");
			goto out;
		}
		rpmDigestUpdate(ctx, buf, (size_t)n);
		off += n;
	}
	rpmDigestFinal(ctx, (void **)&got, NULL, 1);
	ctx = NULL;
	if (!got || strcmp(got, want) != 0)
		rasprintf(err, "%s: corrupted package (payload digest mismatch)",
			  pkg->path);
	else
		rc = 0;
out:
	if (ctx)
		rpmDigestFinal(ctx, NULL, NULL, 0);
	free(got);
	free(buf);
	return rc;
}
