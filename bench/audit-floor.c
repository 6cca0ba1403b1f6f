// SPDX-License-Identifier: MIT
/*
 * The kernel's share of bench/audit-bench: for each file of a list, the
 * system calls an audit cannot avoid, in a loop with nothing else in it:
 * openat (relative to its directory, kept open while it repeats, as audit
 * does), statx, FS_IOC_MEASURE_VERITY, FS_IOC_READ_VERITY_METADATA (the
 * builtin signature), close. Reads no file contents.
 *
 * usage: audit-floor ROOT LIST   (LIST: one absolute path per line)
 * prints: "floor: N files, M with verity, S s"
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <linux/fsverity.h>

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static unsigned char sig[16384];
	char line[4096], dir[4096] = "", path[8192];
	unsigned long long m_buf[(sizeof(struct fsverity_digest) + 64 + 7) / 8];
	struct fsverity_digest *m = (struct fsverity_digest *)m_buf;
	struct fsverity_read_metadata_arg arg = {
		.metadata_type = FS_VERITY_METADATA_TYPE_SIGNATURE,
		.length = sizeof(sig), .buf_ptr = (unsigned long)sig,
	};
	FILE *list;
	long n = 0, on = 0;
	int dfd = -1;
	double t0;

	if (argc != 3 || !(list = fopen(argv[2], "r"))) {
		fprintf(stderr, "usage: audit-floor ROOT LIST\n");
		return 2;
	}
	t0 = now();
	while (fgets(line, sizeof(line), list)) {
		char *slash = strrchr(line, '/');
		struct statx sx;
		int fd;

		line[strcspn(line, "\n")] = '\0';
		if (!slash)
			continue;
		*slash = '\0';
		if (strcmp(dir, line) != 0) {
			if (dfd >= 0)
				close(dfd);
			snprintf(dir, sizeof(dir), "%s", line);
			snprintf(path, sizeof(path), "%s%s", argv[1], dir);
			dfd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
		}
		fd = openat(dfd, slash + 1, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			continue;
		n++;
		statx(fd, "", AT_EMPTY_PATH, STATX_TYPE, &sx);
		m->digest_size = 64;
		if (ioctl(fd, FS_IOC_MEASURE_VERITY, m) == 0) {
			on++;
			ioctl(fd, FS_IOC_READ_VERITY_METADATA, &arg);
		}
		close(fd);
	}
	printf("floor: %ld files, %ld with verity, %.4f s\n", n, on, now() - t0);
	return on == n && n > 0 ? 0 : 1;
}
