// SPDX-License-Identifier: MIT
/*
 * What the kernel says about an open file's fs-verity: whether it is on
 * (statx), the digest it measured, and the builtin signature it keeps with
 * the file. Nothing here reads the file's contents: a 20,000-file audit
 * should cost what these few system calls cost.
 */
#include "scan.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <linux/fsverity.h>

void audit_measure(int fd, struct audit_file_state *st)
{
	struct statx sx;
	/* struct fsverity_digest ends in a flexible array: room behind it. */
	uint64_t m_buf[(sizeof(struct fsverity_digest) +
			VERITY_MAX_DIGEST_SIZE + 7) / 8];
	struct fsverity_digest *m = (struct fsverity_digest *)m_buf;
	struct fsverity_read_metadata_arg arg = {
		.metadata_type = FS_VERITY_METADATA_TYPE_SIGNATURE,
		.length = sizeof(st->sig),
		.buf_ptr = (uintptr_t)st->sig,
	};
	int n;

	st->regular = st->verity = st->measured = false;
	st->err = 0;
	st->sig_len = 0;
	st->sig_errno = ENODATA;
	if (statx(fd, "", AT_EMPTY_PATH | AT_STATX_SYNC_AS_STAT, STATX_TYPE,
		  &sx) != 0) {
		st->err = errno;
		return;
	}
	if (!S_ISREG(sx.stx_mode))
		return;
	st->regular = true;
	/*
	 * btrfs on 6.1 sets the attribute but, without our patch 0006, not the
	 * mask bit; then only the measure ioctl below can tell.
	 */
	if ((sx.stx_attributes_mask & STATX_ATTR_VERITY) &&
	    !(sx.stx_attributes & STATX_ATTR_VERITY))
		return;
	m->digest_size = VERITY_MAX_DIGEST_SIZE;
	if (ioctl(fd, FS_IOC_MEASURE_VERITY, m) != 0) {
		/* ENODATA: no verity; ENOTTY, EOPNOTSUPP: no support */
		if (errno != ENODATA && errno != ENOTTY && errno != EOPNOTSUPP)
			st->err = errno;
		return;
	}
	st->verity = st->measured = true;
	st->digest_alg = m->digest_algorithm;
	st->digest_size = m->digest_size;
	memcpy(st->digest, m->digest, m->digest_size);
	n = ioctl(fd, FS_IOC_READ_VERITY_METADATA, &arg);
	if (n < 0) {
		st->sig_errno = errno;
	} else {
		st->sig_errno = n == 0 ? ENODATA : 0;
		st->sig_len = (size_t)n;
	}
}

bool audit_errno_is_file_damage(int err)
{
	switch (err) {
	case EACCES:	/* not root, or a security module said no */
	case EPERM:
	case EMFILE:
	case ENFILE:
	case ENOMEM:
	case EINTR:
		return false;
	default:	/* EINVAL (fs-verity's own checks), EIO, EUCLEAN... */
		return true;
	}
}

ssize_t audit_read_ima(int fd, uint8_t *buf, size_t size)
{
	return fgetxattr(fd, "security.ima", buf, size);
}
