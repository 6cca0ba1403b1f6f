// SPDX-License-Identifier: MIT
/*
 * Reading an RPM package's framing (lead, signature header, main header,
 * payload offset) and writing a package with a new signature header,
 * atomically. The signature header is parsed here rather than by librpm so
 * that we know its exact byte extent and can copy everything after it as is.
 */
#include "package.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <rpm/rpmtag.h>
#include <rpm/rpmstring.h>
#include <rpm/rpmtd.h>

#include "rpm_tags.h"


#define LEAD_SIZE		96
#define LEAD_TYPE_SOURCE	1
#define HEADER_INTRO_SIZE	16	/* magic (8), index length, data length */

static const uint8_t lead_magic[4] = { 0xed, 0xab, 0xee, 0xdb };
static const uint8_t header_magic[8] = { 0x8e, 0xad, 0xe8, 0x01, 0, 0, 0, 0 };

/* pread() all of @len bytes; a short file is an error (EIO-like). */
static int pread_full(int fd, void *buf, size_t len, off_t off)
{
	uint8_t *p = buf;

	while (len) {
		ssize_t n = pread(fd, p, len, off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -ENODATA;
		p += n;
		off += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * Read and import the header at @off. @what names it in messages. On
 * success *@end is the offset of the first byte after it.
 */
static Header read_header(const struct package *pkg, off_t off,
			  uint32_t max_tags, uint32_t max_data,
			  const char *what, off_t *end, char **err)
{
	uint8_t intro[HEADER_INTRO_SIZE];
	uint32_t il, dl;
	size_t blob_size;
	void *blob;
	Header h;
	int rc;

	if (off + HEADER_INTRO_SIZE > pkg->size) {
		rasprintf(err, "%s: truncated package (no %s)", pkg->path, what);
		return NULL;
	}
	rc = pread_full(pkg->fd, intro, sizeof(intro), off);
	if (rc) {
		rasprintf(err, "%s: cannot read %s: %s", pkg->path, what,
			  strerror(-rc));
		return NULL;
	}
	if (memcmp(intro, header_magic, sizeof(header_magic)) != 0) {
		rasprintf(err, "%s: corrupted package (bad %s magic)",
			  pkg->path, what);
		return NULL;
	}
	il = be32(intro + 8);
	dl = be32(intro + 12);
	if (il < 1 || il > max_tags || dl > max_data) {
		rasprintf(err, "%s: corrupted package (%s claims %u tags and %u bytes)",
			  pkg->path, what, il, dl);
		return NULL;
	}
	blob_size = 8 + (size_t)il * 16 + dl;
	if (off + 8 + (off_t)blob_size > pkg->size) {
		rasprintf(err, "%s: truncated package (%s ends past end of file)",
			  pkg->path, what);
		return NULL;
	}
	blob = rmalloc(blob_size);
	rc = pread_full(pkg->fd, blob, blob_size, off + 8);
	if (rc) {
		rasprintf(err, "%s: cannot read %s: %s", pkg->path, what,
			  strerror(-rc));
		free(blob);
		return NULL;
	}
	h = headerImport(blob, (unsigned int)blob_size, HEADERIMPORT_COPY);
	free(blob);
	if (!h) {
		rasprintf(err, "%s: corrupted package (%s does not parse)",
			  pkg->path, what);
		return NULL;
	}
	*end = off + 8 + (off_t)blob_size;
	return h;
}

/*
 * The signature header records the size of main header plus payload;
 * a file that does not match it was cut short or appended to.
 */
static int check_size(const struct package *pkg, char **err)
{
	struct rpmtd_s td;
	uint64_t want = 0, have = (uint64_t)(pkg->size - pkg->header_start);

	if (headerGet(pkg->sigh, RPMSIGTAG_LONGSIZE, &td, HEADERGET_MINMEM) ||
	    headerGet(pkg->sigh, RPMSIGTAG_SIZE, &td, HEADERGET_MINMEM)) {
		want = rpmtdGetNumber(&td);
		rpmtdFreeData(&td);
	}
	if (want == 0 || want == have)
		return 0;
	rasprintf(err, "%s: %s package (header and payload are %llu bytes, the signature header says %llu)",
		  pkg->path, have < want ? "truncated" : "corrupted",
		  (unsigned long long)have, (unsigned long long)want);
	return -1;
}

/*
 * A v6 package records its compressed payload's size in the main header
 * instead (it has no SIZE tags in the signature header).
 */
static int check_payload_size(const struct package *pkg, char **err)
{
	struct rpmtd_s td;
	uint64_t want, have = (uint64_t)(pkg->size - pkg->payload_start);

	if (!headerGet(pkg->h, RV_TAG_PAYLOAD_SIZE, &td, HEADERGET_MINMEM))
		return 0;
	want = rpmtdGetNumber(&td);
	rpmtdFreeData(&td);
	if (want == have)
		return 0;
	rasprintf(err, "%s: %s package (the payload is %llu bytes, the header says %llu)",
		  pkg->path, have < want ? "truncated" : "corrupted",
		  (unsigned long long)have, (unsigned long long)want);
	return -1;
}

int package_open(struct package *pkg, const char *path, char **err)
{
	struct stat st;
	off_t sig_end;
	int rc;

	memset(pkg, 0, sizeof(*pkg));
	pkg->path = path;
	pkg->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (pkg->fd < 0) {
		rasprintf(err, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(pkg->fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		rasprintf(err, "%s: not a regular file", path);
		goto fail;
	}
	pkg->size = st.st_size;
	if (pkg->size < LEAD_SIZE) {
		rasprintf(err, "%s: not an RPM package (too short)", path);
		goto fail;
	}
	rc = pread_full(pkg->fd, pkg->lead, LEAD_SIZE, 0);
	if (rc) {
		rasprintf(err, "%s: cannot read: %s", path, strerror(-rc));
		goto fail;
	}
	if (memcmp(pkg->lead, lead_magic, sizeof(lead_magic)) != 0) {
		rasprintf(err, "%s: not an RPM package (bad lead magic)", path);
		goto fail;
	}
	if (be16(pkg->lead + 6) == LEAD_TYPE_SOURCE) {
		rasprintf(err, "%s: is a source package; fs-verity signatures belong in binary packages",
			  path);
		goto fail;
	}
	pkg->sigh = read_header(pkg, LEAD_SIZE, SIG_HEADER_MAX_TAGS,
				SIG_HEADER_MAX_DATA, "signature header",
				&sig_end, err);
	if (!pkg->sigh)
		goto fail;
	pkg->sighdr_size = (size_t)(sig_end - LEAD_SIZE);
	pkg->header_start = (sig_end + 7) & ~(off_t)7;
	if (check_size(pkg, err))
		goto fail;
	pkg->h = read_header(pkg, pkg->header_start, RV_HEADER_MAX_TAGS,
			     RV_HEADER_MAX_DATA, "main header",
			     &pkg->payload_start, err);
	if (!pkg->h || check_payload_size(pkg, err))
		goto fail;
	if (headerIsSource(pkg->h)) {
		rasprintf(err, "%s: is a source package; fs-verity signatures belong in binary packages",
			  path);
		goto fail;
	}
	return 0;
fail:
	package_close(pkg);
	return -1;
}

void package_close(struct package *pkg)
{
	headerFree(pkg->sigh);
	headerFree(pkg->h);
	if (pkg->fd >= 0)
		close(pkg->fd);
	pkg->sigh = pkg->h = NULL;
	pkg->fd = -1;
}

FD_t package_open_payload(const struct package *pkg, char **err)
{
	static const char *const known[] = {
		"gzip", "bzip2", "xz", "lzma", "zstd", NULL
	};
	const char *compr = headerGetString(pkg->h, RPMTAG_PAYLOADCOMPRESSOR);
	char mode[32];
	FD_t raw, fd;
	int dupfd, ok = 0;

	if (!compr)
		compr = "gzip";	/* what rpm assumes for old packages */
	for (int i = 0; known[i]; i++)
		ok |= strcmp(compr, known[i]) == 0;
	if (strcmp(compr, "identity") == 0) {
		compr = "ufdio";
		ok = 1;
	}
	if (!ok) {
		rasprintf(err, "%s: unsupported payload compressor \"%s\"",
			  pkg->path, compr);
		return NULL;
	}
	snprintf(mode, sizeof(mode), "r.%s", compr);

	/* A descriptor of our own, so the payload reader's offset is its own. */
	dupfd = open(pkg->path, O_RDONLY | O_CLOEXEC);
	if (dupfd < 0 || lseek(dupfd, pkg->payload_start, SEEK_SET) < 0) {
		rasprintf(err, "%s: cannot reopen: %s", pkg->path,
			  strerror(errno));
		if (dupfd >= 0)
			close(dupfd);
		return NULL;
	}
	raw = fdDup(dupfd);
	close(dupfd);
	fd = raw ? Fdopen(raw, mode) : NULL;
	if (!fd || Ferror(fd)) {
		rasprintf(err, "%s: cannot open %s payload", pkg->path, compr);
		if (fd)
			Fclose(fd);
		else if (raw)
			Fclose(raw);
		return NULL;
	}
	return fd;
}
