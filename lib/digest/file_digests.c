// SPDX-License-Identifier: MIT
/*
 * See file_digests.h. The payload pass (payload_digests.c) sees each
 * content once; this file adds what the payload does not carry: hardlink
 * members after the first, empty files, and the entries that get no
 * signature (directories, symlinks, %ghost files).
 */
#include "file_digests.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <openssl/evp.h>
#include <rpm/rpmfi.h>
#include <rpm/rpmstring.h>
#include <rpm/rpmtag.h>

#include "file_rule.h"
#include "file_msg.h"
#include "payload_digests.h"

struct stage {
	struct manifest_package *out;
	unsigned char *from_payload;
	const struct digest_sink *sink;
};

int package_binding_digest(const struct package *pkg,
			   uint8_t out[BINDING_SIZE], char **err)
{
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	uint8_t buf[1 << 16];
	off_t off = pkg->header_start;
	int ok = md && EVP_DigestInit_ex(md, EVP_sha256(), NULL);

	while (ok && off < pkg->payload_start) {
		size_t want = (size_t)(pkg->payload_start - off);
		ssize_t n = pread(pkg->fd, buf, want < sizeof(buf) ? want : sizeof(buf),
				  off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rasprintf(err, "%s: cannot read the main header: %s",
				  pkg->path, n < 0 ? strerror(errno) : "unexpected end");
			EVP_MD_CTX_free(md);
			return -1;
		}
		ok = EVP_DigestUpdate(md, buf, (size_t)n);
		off += n;
	}
	ok = ok && EVP_DigestFinal_ex(md, out, NULL);
	EVP_MD_CTX_free(md);
	if (!ok)
		rasprintf(err, "%s: cannot compute the binding digest", pkg->path);
	return ok ? 0 : -1;
}

/* Runs on the digest workers; each index is written by one thread. */
static int payload_file(void *ctx, int index, const uint8_t *digest, char **err)
{
	struct stage *s = ctx;

	memcpy(manifest_digest(s->out, (uint32_t)index), digest,
	       s->out->alg->digest_size);
	s->out->present[index] = 1;
	s->from_payload[index] = 1;
	if (s->sink && s->sink->digest)
		return s->sink->digest(s->sink->ctx, index, digest, err);
	return 0;
}

/*
 * The header-order index of a file of @index's hardlink set for which
 * @have[] is set, or -1 (hardlinked content is in the payload once).
 */
static int hardlink_source(rpmfiles files, int index, const unsigned char *have)
{
	const int *links = NULL;
	int n = (int)rpmfilesFLinks(files, index, &links);

	if (!links)		/* not hardlinked */
		return -1;
	for (int i = 0; i < n; i++)
		if (have[links[i]])
			return links[i];
	return -1;
}

static int copy_entry(struct stage *s, uint32_t index, int src, char **err)
{
	memcpy(manifest_digest(s->out, index),
	       manifest_digest(s->out, (uint32_t)src), s->out->alg->digest_size);
	s->out->present[index] = 1;
	if (s->sink && s->sink->copy)
		return s->sink->copy(s->sink->ctx, (int)index, src, err);
	return 0;
}

static int complete_entries(const struct package *pkg, rpmfiles files,
			    struct stage *s, char **err)
{
	struct manifest_package *out = s->out;
	int first_empty = -1, src;

	for (uint32_t i = 0; i < out->count; i++) {
		if (s->from_payload[i] || !verity_files_signed(files, (int)i))
			continue;
		if ((src = hardlink_source(files, (int)i, s->from_payload)) >= 0) {
			if (copy_entry(s, i, src, err))
				return -1;
		} else if (rpmfilesFSize(files, (int)i) != 0) {
			*err = file_msg(pkg->path, files, (int)i,
					"content missing from the payload (corrupted package)");
			return -1;
		} else if (first_empty >= 0) {
			if (copy_entry(s, i, first_empty, err))
				return -1;
		} else {
			uint8_t *d = manifest_digest(out, i);

			if (empty_file_digest(out->alg, d) != 0) {
				rasprintf(err, "%s: cannot compute the empty file's digest",
					  pkg->path);
				return -1;
			}
			out->present[i] = 1;
			first_empty = (int)i;
			if (s->sink && s->sink->digest &&
			    s->sink->digest(s->sink->ctx, (int)i, d, err))
				return -1;
		}
	}
	return 0;
}

static char *package_nevra(const struct package *pkg, char **err)
{
	char *nevra = headerGetAsString(pkg->h, RPMTAG_NEVRA);

	if (!nevra || !*nevra || strlen(nevra) > MANIFEST_MAX_NEVRA ||
	    strpbrk(nevra, " \t\r\n")) {
		rasprintf(err, "%s: package name \"%s\" cannot go in a manifest",
			  pkg->path, nevra ? nevra : "");
		free(nevra);
		return NULL;
	}
	return nevra;
}

int file_digests_compute(const struct package *pkg, rpmfiles files,
			 const struct verity_hash_alg *alg, int jobs,
			 const struct digest_sink *sink,
			 struct manifest_package *out, char **err)
{
	struct stage s = { .out = out, .sink = sink };
	char *nevra = package_nevra(pkg, err);
	uint32_t count = (uint32_t)rpmfilesFC(files);
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (!nevra)
		return -1;
	if (manifest_package_init(out, nevra, count) != 0) {
		rasprintf(err, "%s: out of memory", pkg->path);
		free(nevra);
		return -1;
	}
	free(nevra);
	out->alg = alg;
	s.from_payload = rcalloc(count ? count : 1, 1);
	if (package_binding_digest(pkg, out->binding, err) == 0 &&
		 package_check_header(pkg, out->binding, err) == 0 &&
		 (count == 0 ? package_check_payload(pkg, err) == 0 :
		  payload_digests(pkg, files, alg, jobs, payload_file, &s,
				  err) == 0 &&
		  complete_entries(pkg, files, &s, err) == 0))
		rc = 0;
	free(s.from_payload);
	if (rc)
		manifest_package_free(out);
	return rc;
}
