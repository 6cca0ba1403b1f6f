/* SPDX-License-Identifier: MIT */
/*
 * The enforcer's table as userspace sees it: the pinned BPF maps under
 * /sys/fs/bpf/rpm-verity-enforcer, and the one way a binding is made. The
 * loader fills it at boot; rpm's plugin keeps it current as packages come
 * and go. Both verify a file's signature before they bind its path: the
 * kernel programs only compare digests.
 */
#ifndef RPMVERITY_ENFORCER_TABLE_H
#define RPMVERITY_ENFORCER_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ENFORCER_PIN_DIR "/sys/fs/bpf/rpm-verity-enforcer"

/*
 * The key for @path, NUL-padded as the programs make it; false (nothing
 * can be bound there) when the path does not fit.
 */
bool enforcer_key_make(const char *path, char key[]);

/* The path the process sees @fd at, as d_path gives it; NULL if none. */
char *enforcer_fd_path(int fd);

/* Bind @path to the digest (@alg, fs-verity numbering). 0 or -errno. */
int enforcer_bind(int map_fd, const char *path, uint16_t alg,
		  const uint8_t *digest, size_t size);
/* Forget @path. 0 (also when it was not bound) or -errno. */
int enforcer_unbind(int map_fd, const char *path);

/* The pinned table, or -errno (ENOENT: the enforcer is not loaded). */
int enforcer_table_open(void);

#endif
