// SPDX-License-Identifier: MIT
/*
 * payload-faults PACKAGE...: fault injection into the signer's digest
 * pipeline (lib/digest/payload_digests.c). The per-file callback fails at a
 * chosen file, for every file of each package in turn, with 1, 2 and 4
 * workers, as signing fails when an HSM refuses or a token is full. Each
 * run must fail with the callback's message, stop calling back, and leave
 * nothing behind; under ASan a job freed while the reader still fills it
 * (the use-after-free this once had) aborts the test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rpm/rpmfi.h>
#include <rpm/rpmlib.h>
#include <rpm/rpmstring.h>
#include <rpm/rpmtag.h>
#include <stdatomic.h>

#include "../lib/check.h"
#include "package.h"
#include "payload_digests.h"

struct fault {
	int fail_at;		/* header index whose callback fails; -1: none */
	atomic_int calls;
	atomic_int twice;	/* calls for a file already called for */
	atomic_int failed;
	atomic_uchar *seen;	/* files that got a digest */
};

static int callback(void *ctx, int index, const uint8_t *digest, char **err)
{
	struct fault *f = ctx;

	(void)digest;
	f->calls++;
	if (atomic_exchange(&f->seen[index], 1))
		f->twice++;
	if (index != f->fail_at)
		return 0;
	f->failed = 1;
	rasprintf(err, "injected failure at file %d", index);
	return -1;
}

static void run_package(const char *path)
{
	static const int workers[] = { 1, 2, 4 };
	const struct verity_hash_alg *alg = verity_hash_alg_by_id(1);
	struct package pkg;
	struct fault clean = { .fail_at = -1 };
	rpmfiles files;
	char *err = NULL;
	int fc, tried = 0;

	if (package_open(&pkg, path, &err) != 0) {
		fprintf(stderr, "%s\n", err);
		exit(2);
	}
	files = rpmfilesNew(NULL, pkg.h, RPMTAG_BASENAMES, RPMFI_FLAGS_QUERY);
	fc = (int)rpmfilesFC(files);
	clean.seen = calloc((size_t)fc + 1, sizeof(*clean.seen));
	CHECK(payload_digests(&pkg, files, alg, 2, callback, &clean, &err) == 0);
	CHECK(clean.calls > 0);
	CHECK(clean.twice == 0);

	for (int i = 0; i < fc; i++) {
		if (!clean.seen[i])
			continue;
		for (size_t w = 0; w < sizeof(workers) / sizeof(workers[0]); w++) {
			struct fault f = { .fail_at = i };

			f.seen = calloc((size_t)fc + 1, sizeof(*f.seen));
			char want[64];
			int rc;

			err = NULL;
			rc = payload_digests(&pkg, files, alg, workers[w], callback,
					     &f, &err);
			snprintf(want, sizeof(want), "injected failure at file %d", i);
			CHECK(rc == -1);
			CHECK(err && strstr(err, want));
			CHECK(f.failed == 1);
			if (rc != -1 || !err || !strstr(err, want))
				fprintf(stderr, "%s: file %d, %d workers: rc %d, \"%s\"\n",
					path, i, workers[w], rc, err ? err : "(none)");
			CHECK(f.twice == 0);
			CHECK(f.calls <= clean.calls);
			free(f.seen);
			free(err);
			tried++;
		}
	}
	printf("%s: %d files with content, %d failing runs\n", path,
	       clean.calls, tried);
	free(clean.seen);
	rpmfilesFree(files);
	package_close(&pkg);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: payload-faults PACKAGE...\n");
		return 2;
	}
	if (rpmReadConfigFiles(NULL, NULL) != 0)
		return 2;
	for (int i = 1; i < argc; i++)
		run_package(argv[i]);
	return check_report();
}
