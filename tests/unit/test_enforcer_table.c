// SPDX-License-Identifier: MIT
/*
 * Unit tests for the enforcer's keys (enforcer/enforcer_table.c): a path is
 * NUL-padded to ENFORCER_PATH_MAX as the BPF side pads what d_path gives,
 * and a path that does not fit is never a key. No BPF here: the table
 * itself is tested in the guest (tests/vm/enforcer.sh).
 */
#include <fcntl.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

#include "../lib/check.h"
#include "enforcer_abi.h"
#include "enforcer_table.h"

static bool all_zero(const char *b, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (b[i])
			return false;
	return true;
}

int main(void)
{
	char key[ENFORCER_PATH_MAX], path[ENFORCER_PATH_MAX + 1];
	char *p;
	int fd;

	memset(key, 'x', sizeof(key));
	CHECK(enforcer_key_make("/usr/bin/true", key));
	CHECK(!strcmp(key, "/usr/bin/true") && all_zero(key, 13, sizeof(key)));

	/* 255 bytes fit with their NUL; 256 do not. */
	memset(path, 'a', sizeof(path));
	path[0] = '/';
	path[ENFORCER_PATH_MAX - 1] = 0;
	CHECK(enforcer_key_make(path, key) && key[ENFORCER_PATH_MAX - 1] == 0);
	path[ENFORCER_PATH_MAX - 1] = 'a';
	path[ENFORCER_PATH_MAX] = 0;
	CHECK(!enforcer_key_make(path, key));

	/* The path of a descriptor: the real one, symlinks resolved. */
	fd = open("/proc/self/exe", O_RDONLY);
	p = fd >= 0 ? enforcer_fd_path(fd) : NULL;
	CHECK(p && p[0] == '/' && !strstr(p, "/proc/"));
	free(p);
	if (fd >= 0)
		close(fd);
	CHECK(enforcer_fd_path(-1) == NULL);
	return check_report();
}
