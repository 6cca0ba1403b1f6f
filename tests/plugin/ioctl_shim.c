// SPDX-License-Identifier: MIT
/*
 * Test helper, LD_PRELOADed into rpm: stands in for a kernel with fs-verity
 * so the plugin's calling convention can be checked on a machine without
 * one. It answers FS_IOC_ENABLE_VERITY like the kernel's first checks do
 * (EBADF for a descriptor not opened read-only, ETXTBSY while this process
 * holds a writer on the file, EINVAL for parameters a 4096-byte-page kernel
 * refuses), then succeeds or fails with $VERITY_SHIM_ERRNO, and appends one
 * line per call to $VERITY_SHIM_LOG. Signature checking itself is the real
 * kernel's job and is tested in the VM, not here.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/fsverity.h>

static int log_fd = -1;

/* Opened before rpm chroots into --root, so it stays reachable. */
__attribute__((constructor)) static void shim_init(void)
{
	const char *path = getenv("VERITY_SHIM_LOG");

	if (path)
		log_fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
			      0644);
}

static int other_writers(int fd, const struct stat *st)
{
	int n = 0;

	for (int i = 0; i < 4096; i++) {
		struct stat o;
		int fl;

		if (i == fd || (fl = fcntl(i, F_GETFL)) < 0 ||
		    (fl & O_ACCMODE) == O_RDONLY || fstat(i, &o) != 0)
			continue;
		n += o.st_dev == st->st_dev && o.st_ino == st->st_ino;
	}
	return n;
}

static int wanted_errno(void)
{
	static const struct {
		const char *name;
		int err;
	} names[] = {
		{ "ENOKEY", ENOKEY }, { "EKEYREJECTED", EKEYREJECTED },
		{ "EBADMSG", EBADMSG }, { "EOPNOTSUPP", EOPNOTSUPP },
		{ "ENOTTY", ENOTTY }, { "EPERM", EPERM }, { "EEXIST", EEXIST },
		{ "ENOPKG", ENOPKG },
	};
	const char *want = getenv("VERITY_SHIM_ERRNO");

	for (size_t i = 0; want && i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(want, names[i].name) == 0)
			return names[i].err;
	return 0;
}

static int enable_verity(int fd, const struct fsverity_enable_arg *arg)
{
	struct stat st;
	int fl = fcntl(fd, F_GETFL), writers, err = 0;
	const unsigned char *sig =
		(const unsigned char *)(uintptr_t)arg->sig_ptr;

	if (fl < 0 || fstat(fd, &st) != 0)
		return -1;
	writers = other_writers(fd, &st);
	if ((fl & O_ACCMODE) != O_RDONLY)
		err = EBADF;
	else if (writers)
		err = ETXTBSY;
	else if (arg->version != 1 || arg->block_size != 4096 ||
		 arg->salt_size != 0 || arg->sig_size > 16128)
		err = EINVAL;
	else
		err = wanted_errno();
	if (log_fd >= 0)
		dprintf(log_fd, "enable ino=%lu size=%lld mode=%s writers=%d "
			"algo=%u block=%u salt=%u sig_size=%u sig0=%02x "
			"result=%s\n", (unsigned long)st.st_ino,
			(long long)st.st_size,
			(fl & O_ACCMODE) == O_RDONLY ? "ro" : "rw", writers,
			arg->hash_algorithm, arg->block_size, arg->salt_size,
			arg->sig_size, arg->sig_size ? sig[0] : 0,
			err ? strerror(err) : "ok");
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

int ioctl(int fd, unsigned long request, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (request == FS_IOC_ENABLE_VERITY)
		return enable_verity(fd, arg);
	/* The system call itself: dlsym() here can deadlock under ASan. */
	return (int)syscall(SYS_ioctl, fd, request, arg);
}
