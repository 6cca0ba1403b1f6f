// SPDX-License-Identifier: MIT
/* See package_harness.h. */
#include "package_harness.h"
#include "fuzz.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <rpm/rpmfi.h>
#include <rpm/rpmlib.h>
#include <rpm/rpmtag.h>

#include "cli.h"
#include "package.h"
#include "payload_digests.h"

static char in_path[4096], out_dir[4096], out_path[4096];

static void remove_work_dir(void)
{
	unlink(in_path);
	unlink(out_path);
	rmdir(out_dir);
	*strrchr(in_path, '/') = '\0';
	rmdir(in_path);
}

/* Both package targets start the same way: libFuzzer calls this once. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	package_harness_init();
	return 0;
}

void package_harness_init(void)
{
	const char *tmp = getenv("TMPDIR");
	char dir[4000];

	/* tmpfs when there is one: every input is written and read back. */
	if (!tmp || !*tmp)
		tmp = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
	snprintf(dir, sizeof(dir), "%s/rpmverity-fuzz-XXXXXX", tmp);
	if (!mkdtemp(dir))
		FUZZ_FAIL("mkdtemp %s: %s", dir, strerror(errno));
	snprintf(in_path, sizeof(in_path), "%s/in.rpm", dir);
	snprintf(out_dir, sizeof(out_dir), "%s/out", dir);
	snprintf(out_path, sizeof(out_path), "%s/out/in.rpm", dir);
	if (mkdir(out_dir, 0700) != 0)
		FUZZ_FAIL("mkdir %s: %s", out_dir, strerror(errno));
	atexit(remove_work_dir);
	if (rpmReadConfigFiles(NULL, NULL) != 0)
		FUZZ_FAIL("cannot read rpm configuration");
}

static void write_file(const char *path, const uint8_t *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0)
		FUZZ_FAIL("%s: %s", path, strerror(errno));
	while (size) {
		ssize_t n = write(fd, data, size);

		if (n <= 0)
			FUZZ_FAIL("%s: %s", path, strerror(errno));
		data += n;
		size -= (size_t)n;
	}
	close(fd);
}

/* Whether @path holds exactly @data. */
static int same_bytes(const char *path, const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "rb");
	uint8_t buf[65536];
	size_t off = 0, n;
	int same = f != NULL;

	while (same && (n = fread(buf, 1, sizeof(buf), f)) > 0) {
		same = off + n <= size && memcmp(buf, data + off, n) == 0;
		off += n;
	}
	if (f)
		fclose(f);
	return same && off == size;
}

static int run(int (*cmd)(int, const char **), const char **argv)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	return cmd(argc, argv);
}

struct seen {
	rpmfiles files;
	unsigned char *count;
};

/* Each file's digest arrives once, and only for a regular file. */
static int count_file(void *ctx, int index, const uint8_t *digest, char **err)
{
	struct seen *s = ctx;

	(void)digest;
	(void)err;
	if (index < 0 || index >= (int)rpmfilesFC(s->files))
		FUZZ_FAIL("digest for file %d of %d", index, rpmfilesFC(s->files));
	if (!S_ISREG(rpmfilesFMode(s->files, index)))
		FUZZ_FAIL("digest for file %d, which is not a regular file", index);
	if (s->count[index]++)
		FUZZ_FAIL("two digests for file %d", index);
	return 0;
}

/* The payload reader on its own, with its one-entry-per-file promise. */
static void check_digests(void)
{
	struct package pkg;
	struct seen s = { 0 };
	char *err = NULL;

	if (package_open(&pkg, in_path, &err) != 0) {
		free(err);
		return;
	}
	s.files = rpmfilesNew(NULL, pkg.h, RPMTAG_BASENAMES, RPMFI_FLAGS_QUERY);
	s.count = calloc((size_t)rpmfilesFC(s.files) + 1, 1);
	if (payload_digests(&pkg, s.files, verity_hash_alg_by_id(1), 1,
			    count_file, &s, &err) != 0)
		free(err);
	free(s.count);
	rpmfilesFree(s.files);
	package_close(&pkg);
}

void package_harness_run(const uint8_t *data, size_t size)
{
	const char *sign[] = { "sign", "--key", FUZZ_KEY, "--cert", FUZZ_CERT,
			       "-j", "1", "-o", out_dir, in_path, NULL };
	const char *verify_in[] = { "verify", "--cert", FUZZ_CERT, "-j", "1",
				    in_path, NULL };
	const char *verify_out[] = { "verify", "--cert", FUZZ_CERT, "-j", "1",
				     out_path, NULL };
	const char *strip[] = { "strip", in_path, NULL };

	write_file(in_path, data, size);
	check_digests();
	if (run(cmd_sign, sign) != 0) {
		if (access(out_path, F_OK) == 0)
			FUZZ_FAIL("sign failed but wrote %s", out_path);
	} else if (access(out_path, F_OK) == 0 && run(cmd_verify, verify_out) != 0) {
		FUZZ_FAIL("sign made a package its own verify refuses");
	}
	unlink(out_path);
	if (!same_bytes(in_path, data, size))
		FUZZ_FAIL("sign -o changed its input");
	run(cmd_verify, verify_in);
	if (run(cmd_strip, strip) != 0 && !same_bytes(in_path, data, size))
		FUZZ_FAIL("strip failed and changed its input");
}
