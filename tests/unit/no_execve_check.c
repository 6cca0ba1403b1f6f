// SPDX-License-Identifier: MIT
/*
 * no_execve_check.so, preloaded into rpm-verity-run by run_cli.sh: execveat()
 * answers EINVAL to AT_EXECVE_CHECK, as Linux before 6.14 does, so the
 * launcher's answer to such a kernel is tested on any host.
 */
#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

#define AT_EXECVE_CHECK_FLAG 0x10000

int execveat(int dirfd, const char *path, char *const argv[], char *const envp[], int flags);

int execveat(int dirfd, const char *path, char *const argv[], char *const envp[], int flags)
{
	if (flags & AT_EXECVE_CHECK_FLAG) {
		errno = EINVAL;
		return -1;
	}
	return (int)syscall(SYS_execveat, dirfd, path, argv, envp, flags);
}
