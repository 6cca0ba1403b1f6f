// SPDX-License-Identifier: MIT
/*
 * Writing a package with a new signature header, so that the destination
 * is always either exactly as it was or the complete new package.
 *
 * The new package is built in an unnamed O_TMPFILE in the destination's
 * directory, so a crash or SIGKILL at any moment leaves nothing behind;
 * only when it is complete and fsync'ed is it linked under a temporary name
 * and renamed over the destination, with catchable signals blocked for
 * those two calls. Filesystems without O_TMPFILE get a named temporary file
 * instead, removed again on every error path.
 *
 * The signature header is sized here as rpmsign sizes it: its reserved
 * space absorbs what the new header adds or removes, when it can.
 */
#include "package.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <rpm/rpmstring.h>
#include <rpm/rpmtag.h>
#include <rpm/rpmtd.h>

#include "rpm_tags.h"

static const uint8_t header_magic[8] = { 0x8e, 0xad, 0xe8, 0x01, 0, 0, 0, 0 };

/*
 * The named temporary file being written, if any, for the signal handler:
 * only the fallback path has one, and SIGINT/SIGTERM/SIGHUP must not leave
 * it behind.
 */
static char pending_tmp[PATH_MAX];
static volatile sig_atomic_t pending;

static void remove_pending(int sig)
{
	if (pending)
		unlink(pending_tmp);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void watch_pending(const char *tmp)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa = { .sa_handler = remove_pending };

	snprintf(pending_tmp, sizeof(pending_tmp), "%s", tmp);
	pending = 1;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

static int write_full(int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Copy [@off, @end) of @in to the current position of @out. */
static int copy_range(int in, off_t off, off_t end, int out)
{
	char buf[1 << 16];
	int use_cfr = 1;

	while (off < end) {
		size_t want = (size_t)(end - off) < (1u << 30) ?
			      (size_t)(end - off) : (1u << 30);
		ssize_t n;

		if (use_cfr) {
			n = copy_file_range(in, &off, out, NULL, want, 0);
			if (n < 0 && (errno == EXDEV || errno == ENOSYS ||
				      errno == EOPNOTSUPP || errno == EINVAL)) {
				use_cfr = 0;
				continue;
			}
		} else {
			n = pread(in, buf, want < sizeof(buf) ? want : sizeof(buf), off);
			if (n > 0) {
				int rc = write_full(out, buf, (size_t)n);

				if (rc)
					return rc;
				off += n;
			}
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -ENODATA;	/* the input shrank under us */
	}
	return 0;
}

/* Which tag rpmsign resizes: 999 in v6 packages (tag 5114 >= 6), else 1008. */
static rpmTagVal reserved_tag(const struct package *pkg)
{
	struct rpmtd_s td;
	uint64_t format = 0;

	if (headerGet(pkg->h, RV_TAG_RPMFORMAT, &td, HEADERGET_MINMEM)) {
		format = rpmtdGetNumber(&td);
		rpmtdFreeData(&td);
	}
	return format >= 6 ? RV_SIGTAG_RESERVED : RPMSIGTAG_RESERVEDSPACE;
}

/*
 * @sigh (of @blob_size bytes exported) with its reserved-space tag resized
 * by the difference to the header @pkg was read with (package.h says when);
 * *@fitted stays NULL to write @sigh as it is. rpmsign leaves the region (index entry
 * and trailer, 32 bytes) out of both sizes; both headers have one, so the
 * difference is the same. The reserved tag's data is the last in the
 * header, so no alignment moves and the result is as long as the header
 * read. Returns -1 when it cannot make that header (out of memory): the
 * caller fails rather than write a header of another size without a word.
 */
static int fit_reserved(const struct package *pkg, Header sigh,
			unsigned int blob_size, Header *fitted)
{
	rpmTagVal tag = reserved_tag(pkg);
	int64_t diff = (int64_t)pkg->sighdr_size -
		       (int64_t)(sizeof(header_magic) + blob_size);
	struct rpmtd_s td;
	rpm_count_t count;
	Header h;
	uint8_t *zeros;
	int ok;

	*fitted = NULL;
	if (diff == 0 || !headerGet(sigh, tag, &td, HEADERGET_MINMEM))
		return 0;
	count = td.count;
	if (td.type != RPM_BIN_TYPE || (diff < 0 && -diff >= count))
		return 0;	/* rpm stores no empty entries: no fit */
	count = (rpm_count_t)(count + diff);
	zeros = calloc(count, 1);
	if (!zeros)
		return -1;
	h = headerCopy(sigh);	/* loose entries, no region: rpmsign's edit */
	rpmtdReset(&td);
	td.tag = tag;
	td.type = RPM_BIN_TYPE;
	td.count = count;
	td.data = zeros;
	ok = headerMod(h, &td);
	free(zeros);
	if (ok)
		*fitted = headerReload(h, RPMTAG_HEADERSIGNATURES);
	else
		headerFree(h);
	return *fitted ? 0 : -1;
}

uint8_t *package_sighdr_bytes(const struct package *pkg, Header sigh,
			      size_t *len, char **err)
{
	unsigned int blob_size = 0;
	void *blob = headerExport(sigh, &blob_size);
	Header fitted = NULL;
	size_t sig_size, padded;
	uint8_t *out;

	if (blob && fit_reserved(pkg, sigh, blob_size, &fitted) != 0) {
		rasprintf(err, "%s: out of memory resizing the reserved space",
			  pkg->path);
		free(blob);
		return NULL;
	}
	if (fitted) {
		free(blob);
		blob = headerExport(fitted, &blob_size);
		headerFree(fitted);
	}
	sig_size = sizeof(header_magic) + blob_size;
	padded = sig_size + (8 - sig_size % 8) % 8;
	if (!blob) {
		rasprintf(err, "%s: cannot serialize the signature header",
			  pkg->path);
		return NULL;
	}
	if (be32(blob) > SIG_HEADER_MAX_TAGS ||
	    be32((uint8_t *)blob + 4) > SIG_HEADER_MAX_DATA) {
		rasprintf(err, "%s: signature header would hold %u bytes, more than the %u rpm reads; use a smaller key (ECDSA signatures are about half the size of RSA-2048 ones)",
			  pkg->path, be32((uint8_t *)blob + 4), SIG_HEADER_MAX_DATA);
		free(blob);
		return NULL;
	}
	out = rcalloc(1, padded);
	memcpy(out, header_magic, sizeof(header_magic));
	memcpy(out + sizeof(header_magic), blob, blob_size);
	free(blob);
	*len = padded;
	return out;
}

static int write_contents(const struct package *pkg, Header sigh, int out,
			  const char *dest, char **err)
{
	size_t sig_size = 0;
	uint8_t *sig = package_sighdr_bytes(pkg, sigh, &sig_size, err);
	int rc;

	if (!sig)
		return -1;
	rc = write_full(out, pkg->lead, sizeof(pkg->lead));
	if (!rc)
		rc = write_full(out, sig, sig_size);
	free(sig);
	if (!rc)
		rc = copy_range(pkg->fd, pkg->header_start, pkg->size, out);
	if (!rc && fsync(out) != 0)
		rc = -errno;
	if (rc)
		rasprintf(err, "%s: cannot write: %s", dest, strerror(-rc));
	return rc ? -1 : 0;
}

static void split_path(const char *path, char *dir, size_t dirlen,
		       const char **base)
{
	const char *slash = strrchr(path, '/');

	if (!slash) {
		snprintf(dir, dirlen, ".");
		*base = path;
	} else if (slash == path) {
		snprintf(dir, dirlen, "/");
		*base = slash + 1;
	} else {
		snprintf(dir, dirlen, "%.*s", (int)(slash - path), path);
		*base = slash + 1;
	}
}

int package_write(const struct package *pkg, Header sigh, const char *dest,
		  char **err)
{
	char dir[PATH_MAX], tmp[PATH_MAX], procpath[64];
	const char *base;
	sigset_t all, old;
	struct stat st;
	int out, named = 0, rc = -1, dirfd;

	split_path(dest, dir, sizeof(dir), &base);
	if (snprintf(tmp, sizeof(tmp), "%s/.%s.rpm-verity.%d", dir, base,
		     (int)getpid()) >= (int)sizeof(tmp)) {
		rasprintf(err, "%s: path too long", dest);
		return -1;
	}

	out = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
	if (out < 0 && (errno == EOPNOTSUPP || errno == EISDIR ||
			errno == ENOENT)) {
		watch_pending(tmp);
		out = open(tmp, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
		named = out >= 0;
	}
	if (out < 0) {
		rasprintf(err, "%s: cannot create a file in %s: %s", dest, dir,
			  strerror(errno));
		return -1;
	}
	if (write_contents(pkg, sigh, out, dest, err) != 0)
		goto out;

	/* The new package keeps the original's mode (and owner, as root). */
	if (fstat(pkg->fd, &st) == 0) {
		if (fchmod(out, st.st_mode & 07777) != 0) {
			rasprintf(err, "%s: cannot set mode: %s", dest,
				  strerror(errno));
			goto out;
		}
		if (geteuid() == 0 && fchown(out, st.st_uid, st.st_gid) != 0) {
			rasprintf(err, "%s: cannot set owner: %s", dest,
				  strerror(errno));
			goto out;
		}
	}

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	if (!named) {
		snprintf(procpath, sizeof(procpath), "/proc/self/fd/%d", out);
		if (linkat(AT_FDCWD, procpath, AT_FDCWD, tmp,
			   AT_SYMLINK_FOLLOW) == 0)
			named = 1;
		else
			rasprintf(err, "%s: cannot link new file: %s", dest,
				  strerror(errno));
	}
	if (named && rename(tmp, dest) == 0) {
		named = 0;
		rc = 0;
	} else if (named) {
		rasprintf(err, "%s: cannot replace: %s", dest, strerror(errno));
	}
	if (named) {
		unlink(tmp);
		named = 0;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);

	if (rc == 0) {
		/* Make the rename itself durable. */
		dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dirfd >= 0) {
			fsync(dirfd);
			close(dirfd);
		}
	}
out:
	if (rc != 0 && named)
		unlink(tmp);
	pending = 0;
	close(out);
	return rc;
}
