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
#include <openssl/evp.h>
#include <rpm/rpmstring.h>
#include <rpm/rpmtag.h>
#include <rpm/rpmtd.h>

#include "rpm_tags.h"

/* OpenSSL's digest for rpm's algorithm number; NULL for one we do not check. */
static const EVP_MD *evp_digest(int algo)
{
	switch (algo) {
	case 2:			return EVP_sha1();
	case RV_HASHALGO_SHA256:	return EVP_sha256();
	case 9:			return EVP_sha384();
	case RV_HASHALGO_SHA512:	return EVP_sha512();
	case 11:		return EVP_sha224();
	case RV_HASHALGO_SHA3_256:	return EVP_sha3_256();
	case 14:		return EVP_sha3_512();
	default:		return NULL;
	}
}

/* Hash [@off, @end) of @pkg with rpm's digest @algo, as hex. */
static char *digest_range(const struct package *pkg, int algo, off_t off,
			  off_t end, char **err)
{
	const EVP_MD *md = evp_digest(algo);
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	/* under malloc's mmap threshold: no fresh pages to fault in per call */
	size_t bufsize = 64 * 1024;
	uint8_t *buf = rmalloc(bufsize);
	uint8_t out[EVP_MAX_MD_SIZE];
	unsigned int outlen = 0;
	char *hex = NULL;

	if (!md) {
		rasprintf(err, "%s: cannot check a digest of unknown algorithm %d",
			  pkg->path, algo);
		goto out;
	}
	if (!ctx || !EVP_DigestInit_ex(ctx, md, NULL)) {
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
		EVP_DigestUpdate(ctx, buf, (size_t)n);
		off += n;
	}
	if (!EVP_DigestFinal_ex(ctx, out, &outlen)) {
		rasprintf(err, "%s: cannot compute a digest", pkg->path);
		goto out;
	}
	hex = rmalloc(2 * outlen + 1);
	hex_encode(out, outlen, hex);
out:
	EVP_MD_CTX_free(ctx);
	free(buf);
	return hex;
}

/*
 * The main header against one digest of it in the signature header: @want
 * (hex) computed with rpm's algorithm @algo; @sha256, when given, is the
 * header's SHA-256 already computed.
 */
static int check_header_digest(const struct package *pkg, const char *want,
			       int algo, const uint8_t *sha256,
			       const char *what, char **err)
{
	char *got;
	int rc = -1;

	if (algo == RV_HASHALGO_SHA256 && sha256) {
		got = rmalloc(2 * 32 + 1);
		hex_encode(sha256, 32, got);
	} else {
		got = digest_range(pkg, algo, pkg->header_start,
				   pkg->payload_start, err);
	}
	if (!got)
		return -1;
	if (strcmp(got, want) != 0)
		rasprintf(err, "%s: corrupted package (header %s digest mismatch)",
			  pkg->path, what);
	else
		rc = 0;
	free(got);
	return rc;
}

/*
 * The main header against the signature header's digests of it: SHA-256
 * (or, in older packages, SHA-1) and, in v6 packages, SHA3-256. A package
 * without any passes (rpm installs it too).
 */
int package_check_header(const struct package *pkg, const uint8_t *sha256,
			 char **err)
{
	const char *sha2 = headerGetString(pkg->sigh, RPMSIGTAG_SHA256);
	const char *sha1 = headerGetString(pkg->sigh, RPMSIGTAG_SHA1);
	const char *sha3 = headerGetString(pkg->sigh, RV_SIGTAG_SHA3_256);

	if (sha2 && check_header_digest(pkg, sha2, RV_HASHALGO_SHA256, sha256,
					"SHA-256", err))
		return -1;
	if (!sha2 && sha1 && check_header_digest(pkg, sha1, 2, NULL,
						 "SHA-1", err))
		return -1;
	if (sha3 && check_header_digest(pkg, sha3, RV_HASHALGO_SHA3_256, NULL,
					"SHA3-256", err))
		return -1;
	return 0;
}

int package_check_digests(const struct package *pkg,
			  const uint8_t *header_sha256, char **err)
{
	return package_check_header(pkg, header_sha256, err) ||
	       package_check_payload(pkg, err) ? -1 : 0;
}

/*
 * Which payload digest to check: tag 5092 with its algorithm (5093; a v6
 * package has none, and rpm 6 then reads SHA-256, as here), else v6's
 * SHA3-256 or SHA-512. A package with none of them (made before rpm 4.14)
 * passes, as it does in rpm; one whose digest is there but unusable does not.
 */
int package_payload_expect(const struct package *pkg,
			   struct payload_expect *e, char **err)
{
	const char *want = headerGetString(pkg->h, RV_TAG_PAYLOAD_SHA256);
	struct rpmtd_s td;
	int algo = RV_HASHALGO_SHA256;

	memset(e, 0, sizeof(*e));
	if (want && headerGet(pkg->h, RV_TAG_PAYLOAD_ALGO, &td,
			      HEADERGET_MINMEM)) {
		const uint32_t *a = rpmtdGetUint32(&td);

		algo = a && *a <= INT32_MAX ? (int)*a : -1;
		rpmtdFreeData(&td);
	} else if (!want &&
		   (want = headerGetString(pkg->h, RV_TAG_PAYLOAD_SHA3_256))) {
		algo = RV_HASHALGO_SHA3_256;
	} else if (!want &&
		   (want = headerGetString(pkg->h, RV_TAG_PAYLOAD_SHA512))) {
		algo = RV_HASHALGO_SHA512;
	}
	if (!want)
		return 0;
	if (!evp_digest(algo) || !*want) {
		rasprintf(err, "%s: cannot check the payload digest (algorithm %d)",
			  pkg->path, algo);
		return -1;
	}
	e->algo = algo;
	e->hex = rstrdup(want);
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
