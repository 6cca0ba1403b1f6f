// SPDX-License-Identifier: MIT
/*
 * Turns fs-verity on for a file rpm has just written, and says in words why
 * the kernel refused when it does.
 *
 * Why the descriptor swap: rpm 4.18 calls fsm_file_prepare while the file's
 * O_WRONLY descriptor (the one the payload was written through) is still
 * open, and closes it only afterwards. FS_IOC_ENABLE_VERITY wants a read-only
 * descriptor and refuses while any writer is open (ETXTBSY on 6.1, EBADF on
 * newer kernels). So we open the same file read-only, check by device and
 * inode that it is the same file, and dup2() it over rpm's descriptor: that
 * drops the only writer, rpm closes the read-only descriptor later as it
 * would have closed its own, and nothing rpm does after prepare writes to
 * the file. Then verity is enabled on that descriptor.
 */
#include "verity.h"
#include "verity_format.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/fsverity.h>

/* Open the file req names read-only, making sure it is rpm's file. */
static int reopen_readonly(const struct verity_enable_req *req)
{
	const struct stat *want = req->st;
	char proc[64];
	struct stat got;
	int fd = openat(req->dir_fd, req->name, O_RDONLY | O_NOFOLLOW | O_NOCTTY);

	if (fd < 0) {
		/* Without a chroot, /proc reaches the descriptor itself. */
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", req->fd);
		fd = open(proc, O_RDONLY | O_NOCTTY);
		if (fd < 0)
			return -1;
	}
	if (fstat(fd, &got) != 0 || got.st_dev != want->st_dev ||
	    got.st_ino != want->st_ino) {
		close(fd);
		errno = ESTALE;
		return -1;
	}
	return fd;
}

/*
 * Make req->fd a read-only descriptor of the same file. It becomes
 * close-on-exec whatever it was: rpm runs nothing before closing it. (Asking
 * would take two more fcntl() calls per file, on top of the five the swap
 * and the check need.)
 */
static int drop_writer(const struct verity_enable_req *req)
{
	int ro = reopen_readonly(req);

	if (ro < 0)
		return errno;
	if (dup3(ro, req->fd, O_CLOEXEC) < 0) {
		int err = errno;

		close(ro);
		return err;
	}
	close(ro);
	return 0;
}

int verity_enable(const struct verity_enable_req *req)
{
	struct fsverity_enable_arg arg;
	int err = req->writer ? drop_writer(req) : 0;
	double start;

	if (err)
		return err;
	memset(&arg, 0, sizeof(arg));
	arg.version = 1;
	arg.hash_algorithm = req->algo;
	arg.block_size = VERITY_BLOCK_SIZE;
	arg.sig_size = (uint32_t)req->sig_len;
	arg.sig_ptr = (uintptr_t)req->sig;
	start = verity_seconds();
	err = ioctl(req->fd, FS_IOC_ENABLE_VERITY, &arg) == 0 ? 0 : errno;
	*req->kernel_seconds += verity_seconds() - start;
	return err == EEXIST ? 0 : err;
}

bool verity_errno_is_unsupported(int err)
{
	return err == ENOTTY || err == EOPNOTSUPP;
}

const char *verity_enable_reason(int err)
{
	switch (err) {
	case ENOKEY:
		return "signature rejected: certificate not in .fs-verity keyring";
	case EKEYREJECTED:
		return "signature rejected: it does not match the file's "
		       "contents (file changed, or signed for other contents)";
	case EBADMSG:
		return "signature rejected: the kernel cannot parse it";
	case EKEYEXPIRED:
		return "signature rejected: the certificate has expired";
	case EKEYREVOKED:
		return "signature rejected: the certificate was revoked";
	case EPERM:
		return "not permitted: the file has no usable signature and "
		       "fs.verity.require_signatures is set";
	case EMSGSIZE:
		return "signature too large for the kernel";
	case ENOPKG:
		return "the kernel lacks the package's hash algorithm";
	case EINVAL:
		return "the kernel refused the Merkle tree parameters "
		       "(hash algorithm, 4096-byte blocks)";
	case ETXTBSY:
		return "the file is still open for writing";
	case EFBIG:
		return "file too large for fs-verity";
	case EROFS:
		return "read-only filesystem";
	case ENOSPC:
		return "No space left on device: no room for the file's "
		       "Merkle tree";
	case EIO:
		return "Input/output error while the file's data or its "
		       "Merkle tree was read or written (see the kernel log)";
	case ESTALE:
		return "the file changed under rpm before verity could be enabled";
	case ENOTTY:
		return "the filesystem does not support fs-verity";
	case EOPNOTSUPP:
		return "fs-verity is not enabled for this filesystem or kernel";
	default:
		return strerror(err);
	}
}
