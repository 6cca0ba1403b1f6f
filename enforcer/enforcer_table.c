// SPDX-License-Identifier: MIT
/*
 * Bindings in the enforcer's table (enforcer_table.h): the key is the
 * path, NUL-padded to ENFORCER_PATH_MAX, exactly as the BPF side builds it
 * from d_path, so a lookup there finds what is bound here.
 */
#include "enforcer_table.h"
#include "enforcer_abi.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

bool enforcer_key_make(const char *path, char key[])
{
	size_t n = strlen(path);

	if (n >= ENFORCER_PATH_MAX)
		return false;
	memset(key, 0, ENFORCER_PATH_MAX);
	memcpy(key, path, n);
	return true;
}

char *enforcer_fd_path(int fd)
{
	char link[64], buf[PATH_MAX];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, buf, sizeof(buf) - 1);
	if (n <= 0 || buf[0] != '/')
		return NULL;
	buf[n] = 0;
	return strdup(buf);
}

int enforcer_bind(int map_fd, const char *path, uint16_t alg,
		  const uint8_t *digest, size_t size)
{
	struct enforcer_key key;
	struct enforcer_digest d = { .alg = alg, .size = (unsigned short)size };

	if (size > sizeof(d.bytes))
		return -EINVAL;
	if (!enforcer_key_make(path, key.path))
		return -ENAMETOOLONG;
	memcpy(d.bytes, digest, size);
	return bpf_map_update_elem(map_fd, &key, &d, BPF_ANY) ? -errno : 0;
}

int enforcer_unbind(int map_fd, const char *path)
{
	struct enforcer_key key;

	if (!enforcer_key_make(path, key.path))
		return 0;
	if (bpf_map_delete_elem(map_fd, &key) && errno != ENOENT)
		return -errno;
	return 0;
}

int enforcer_table_open(void)
{
	int fd = bpf_obj_get(ENFORCER_PIN_DIR "/bindings");

	return fd < 0 ? -errno : fd;
}
