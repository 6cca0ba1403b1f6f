// SPDX-License-Identifier: MIT
/* See signed_write.h. */
#include "signed_write.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <rpm/rpmbase64.h>
#include <rpm/rpmstring.h>

#include "verity_tags.h"

char *verity_tag_entry(const uint8_t *der, size_t len)
{
	return rpmBase64Encode(der, len, -1);
}

/* @data to @path by a temporary file in the same directory and a rename. */
static int write_small_file(const char *path, const uint8_t *data, size_t len,
			    char **err)
{
	char *tmp = rstrscat(NULL, path, ".tmp", NULL);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	int rc = -1;

	if (fd < 0) {
		rasprintf(err, "%s: cannot create: %s", tmp, strerror(errno));
		free(tmp);
		return -1;
	}
	while (len) {
		ssize_t n = write(fd, data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		data += n;
		len -= (size_t)n;
	}
	if (len == 0 && fsync(fd) == 0 && close(fd) == 0) {
		fd = -1;
		if (rename(tmp, path) == 0)
			rc = 0;
	}
	if (rc)
		rasprintf(err, "%s: cannot write: %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	if (rc)
		unlink(tmp);
	free(tmp);
	return rc;
}

static int write_sighdr(const struct package *pkg, Header sigh,
			const char *dest, const char *dir, char **err)
{
	const char *base = strrchr(dest, '/');
	char *path = rstrscat(NULL, dir, "/", base ? base + 1 : dest,
			      ".sighdr", NULL);
	size_t len = 0;
	uint8_t *bytes = package_sighdr_bytes(pkg, sigh, &len, err);
	int rc = bytes ? write_small_file(path, bytes, len, err) : -1;

	free(bytes);
	free(path);
	return rc;
}

int write_signed_package(const struct package *pkg, char **entries,
			 uint32_t count, const struct verity_hash_alg *alg,
			 const char *dest, const char *sighdr_dir, char **err)
{
	Header sigh = verity_tags_replace(pkg->sigh, entries, count, alg->id);
	int rc = -1;

	if (!sigh) {
		rasprintf(err, "%s: cannot build the signature header", pkg->path);
		return -1;
	}
	if ((!sighdr_dir || write_sighdr(pkg, sigh, dest, sighdr_dir, err) == 0) &&
	    package_write(pkg, sigh, dest, err) == 0)
		rc = 0;
	headerFree(sigh);
	return rc;
}
