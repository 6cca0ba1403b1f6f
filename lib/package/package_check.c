// SPDX-License-Identifier: MIT
/*
 * Package integrity: the signature header records a digest of the main
 * header, and the main header one of the compressed payload, so one cheap
 * pass over the file tells a corrupted package from a good one before
 * anything is signed (rpm would refuse to install it anyway).
 */
#include "package.h"
#include "hex.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <rpm/rpmcrypto.h>
#include <rpm/rpmpgp.h>
#include <rpm/rpmstring.h>
#include <rpm/rpmtag.h>
#include <rpm/rpmtd.h>

/* Hash @len bytes of @pkg from @off with rpm's digest @algo, as hex. */
static char *digest_range(const struct package *pkg, int algo, off_t off,
			  off_t end, char **err)
{
	DIGEST_CTX ctx = rpmDigestInit(algo, RPMDIGEST_NONE);
	/* under malloc's mmap threshold: no fresh pages to fault in per call */
	size_t bufsize = 64 * 1024;
	uint8_t *buf = malloc(bufsize);
	char *hex = NULL;

	if (!ctx || !buf) {
		rasprintf(err, "%s: cannot compute a digest", pkg->path);
		goto out;
	}
	while (off < end) {
		size_t want = (size_t)(end - off) < bufsize ? (size_t)(end - off) : bufsize;
		ssize_t n = pread(pkg->fd, buf, want, off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rasprintf(err, "%s: cannot read: %s", pkg->path,
				  n < 0 ? strerror(errno) : "unexpected end");
			goto out;
		}
		rpmDigestUpdate(ctx, buf, (size_t)n);
		off += n;
	}
	rpmDigestFinal(ctx, (void **)&hex, NULL, 1);
	ctx = NULL;
out:
	if (ctx)
		rpmDigestFinal(ctx, NULL, NULL, 0);
	free(buf);
	return hex;
}

/*
 * The main header against the signature header's SHA-256 (or, in older
 * packages, SHA-1) of it; @sha256, when given, is that SHA-256 already
 * computed. A package without either passes.
 */
int package_check_header(const struct package *pkg, const uint8_t *sha256,
			 char **err)
{
	const char *want = headerGetString(pkg->sigh, RPMSIGTAG_SHA256);
	int algo = PGPHASHALGO_SHA256;
	char *got;
	int rc = -1;

	if (!want) {
		want = headerGetString(pkg->sigh, RPMSIGTAG_SHA1);
		algo = PGPHASHALGO_SHA1;
	}
	if (!want)
		return 0;
	if (algo == PGPHASHALGO_SHA256 && sha256) {
		got = malloc(2 * 32 + 1);
		if (got)
			hex_encode(sha256, 32, got);
		else
			rasprintf(err, "%s: out of memory", pkg->path);
	} else {
		got = digest_range(pkg, algo, pkg->header_start,
				   pkg->payload_start, err);
	}
	if (!got)
		return -1;
	if (strcmp(got, want) != 0)
		rasprintf(err, "%s: corrupted package (header digest mismatch)",
			  pkg->path);
	else
		rc = 0;
	free(got);
	return rc;
}

int package_check_digests(const struct package *pkg,
			  const uint8_t *header_sha256, char **err)
{
	return package_check_header(pkg, header_sha256, err) ||
	       package_check_payload(pkg, err) ? -1 : 0;
}

int package_payload_expect(const struct package *pkg,
			   struct payload_expect *e, char **err)
{
	const char *want = headerGetString(pkg->h, RPMTAG_PAYLOADDIGEST);
	struct rpmtd_s td;
	const uint32_t *algo;

	memset(e, 0, sizeof(*e));
	if (!want || !headerGet(pkg->h, RPMTAG_PAYLOADDIGESTALGO, &td,
				HEADERGET_MINMEM))
		return 0;
	algo = rpmtdGetUint32(&td);
	if (algo && *algo > 0 && *algo <= INT32_MAX) {
		e->algo = (int)*algo;
		e->hex = strdup(want);
	}
	rpmtdFreeData(&td);
	if (!e->hex) {
		rasprintf(err, "%s: cannot check payload digest", pkg->path);
		return -1;
	}
	return 0;
}

int package_payload_verify(const struct package *pkg,
			   const struct payload_expect *e, char **err)
{
	char *got;
	int rc = -1;

	if (!e->hex)
		return 0;
	got = digest_range(pkg, e->algo, pkg->payload_start, pkg->size, err);
	if (!got)
		return -1;
	if (strcmp(got, e->hex) != 0)
		rasprintf(err, "%s: corrupted package (payload digest mismatch)",
			  pkg->path);
	else
		rc = 0;
	free(got);
	return rc;
}

int package_check_payload(const struct package *pkg, char **err)
{
	struct payload_expect e;
	int rc = package_payload_expect(pkg, &e, err) ||
		 package_payload_verify(pkg, &e, err) ? -1 : 0;

	free(e.hex);
	return rc;
}
