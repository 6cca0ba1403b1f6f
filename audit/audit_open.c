// SPDX-License-Identifier: MIT
/*
 * Opening installed files under --root without ever leaving it. A package's
 * directory may be a symlink (/bin -> usr/bin), and an attacker may plant
 * one (/usr/lib -> /home/x): every symlink is resolved as if the root were
 * "/", so ".." and absolute targets stay inside it. openat2's
 * RESOLVE_IN_ROOT does exactly that in the kernel; without it (before 5.6)
 * the path is walked a component at a time here. The file itself is never
 * followed (O_NOFOLLOW): a symlink where the package has a regular file is a
 * problem to report, not a file to check.
 *
 * Files come from the rpmdb grouped by directory, so the directory is opened
 * once and each file with one openat() relative to it, as the plugin does.
 */
#include "scan.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>
#include <rpm/rpmstring.h>

#define DIR_FLAGS (O_PATH | O_DIRECTORY | O_CLOEXEC)
#define MAX_LINKS 40		/* as the kernel's path walk */
#define MAX_DEPTH 256

static int openat2_in_root(int root, const char *rel)
{
	struct open_how how = {
		.flags = DIR_FLAGS,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};

	return (int)syscall(SYS_openat2, root, rel, &how, sizeof(how));
}

int audit_root_open(struct audit_root *r, const char *path, char **err)
{
	struct stat st;
	int fd;

	memset(r, 0, sizeof(*r));
	r->fd = r->dir_fd = -1;
	r->fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (r->fd < 0 || fstat(r->fd, &st) != 0) {
		*err = rstrscat(NULL, path, ": cannot open the root directory: ",
				strerror(errno), NULL);
		audit_root_close(r);
		return -1;
	}
	/* RPMVERITY_AUDIT_WALK=1: the fallback even when openat2 exists (tests). */
	r->walk = getenv("RPMVERITY_AUDIT_WALK") &&
		  !strcmp(getenv("RPMVERITY_AUDIT_WALK"), "1");
	if (!r->walk) {
		fd = openat2_in_root(r->fd, ".");
		if (fd >= 0)
			close(fd);
		else if (errno == ENOSYS || errno == E2BIG || errno == EINVAL)
			r->walk = true;
	}
	return 0;
}

void audit_root_close(struct audit_root *r)
{
	if (r->dir_fd >= 0)
		close(r->dir_fd);
	if (r->fd >= 0)
		close(r->fd);
	free(r->dir);
	r->dir = NULL;
	r->fd = r->dir_fd = -1;
}

/*
 * The same resolution as RESOLVE_IN_ROOT, in userspace: a stack of directory
 * fds from the root down, ".." pops (never past the root), a symlink's target
 * replaces it in the path still to walk (an absolute one from the root).
 */
static int walk_in_root(int root, const char *path)
{
	int stack[MAX_DEPTH], depth = 0, links = 0, fd = -1, saved;
	char *todo = rstrdup(path), *rest, *comp, *grown;
	char target[PATH_MAX];
	struct stat st;
	ssize_t n;

	stack[0] = root;
	rest = todo;
	while (rest && *rest) {
		comp = rest;
		rest = strchr(rest, '/');
		if (rest)
			*rest++ = '\0';
		if (!*comp || !strcmp(comp, "."))
			continue;
		if (!strcmp(comp, "..")) {
			if (depth > 0)
				close(stack[depth--]);
			continue;
		}
		fd = openat(stack[depth], comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st) != 0)
			goto fail;
		if (S_ISDIR(st.st_mode)) {
			if (depth + 1 >= MAX_DEPTH) {
				errno = ENAMETOOLONG;
				goto fail;
			}
			stack[++depth] = fd;
			fd = -1;
			continue;
		}
		if (!S_ISLNK(st.st_mode)) {
			errno = ENOTDIR;
			goto fail;
		}
		n = readlinkat(fd, "", target, sizeof(target) - 1);
		if (n < 0)
			goto fail;
		target[n] = '\0';
		close(fd);
		fd = -1;
		if (++links > MAX_LINKS) {
			errno = ELOOP;
			goto fail;
		}
		if (target[0] == '/')
			while (depth > 0)
				close(stack[depth--]);
		grown = rstrscat(NULL, target, "/", rest ? rest : "", NULL);
		free(todo);
		todo = rest = grown;
	}
	free(todo);
	if (depth > 0)
		return stack[depth];
	return openat(root, ".", DIR_FLAGS);
fail:
	saved = errno;
	if (fd >= 0)
		close(fd);
	while (depth > 0)
		close(stack[depth--]);
	free(todo);
	errno = saved;
	return -1;
}

static int open_dir(struct audit_root *r, const char *dir)
{
	const char *rel = dir;

	while (*rel == '/')
		rel++;
	if (r->walk)
		return walk_in_root(r->fd, rel);
	return openat2_in_root(r->fd, *rel ? rel : ".");
}

int audit_root_openat(struct audit_root *r, const char *dir,
		      const char *base)
{
	if (!r->dir || strcmp(r->dir, dir) != 0) {
		if (r->dir_fd >= 0)
			close(r->dir_fd);
		free(r->dir);
		r->dir = rstrdup(dir);
		r->dir_fd = open_dir(r, dir);
		r->dir_errno = r->dir_fd < 0 ? errno : 0;
	}
	if (r->dir_fd < 0) {
		errno = r->dir_errno;
		return -1;
	}
	/* O_NONBLOCK: a FIFO put in a file's place must not hang the audit. */
	return openat(r->dir_fd, base,
		      O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
}

int audit_root_opendir(struct audit_root *r, const char *dir)
{
	return open_dir(r, dir);
}
