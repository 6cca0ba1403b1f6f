// SPDX-License-Identifier: MIT
/*
 * Fuzz target: a whole package, whose cpio payload is walked twice, by the
 * signer's own reader (lib/package/payload_reader.c) and by librpm's archive
 * iterator, which is what rpm installs by. The oracle: every entry ours
 * hands over, librpm hands over too, in the same place, for the same
 * header file and with the same content; and where ours reads the archive
 * to its end, so does librpm, with nothing more. Ours may refuse an
 * archive librpm reads (it is stricter about the form), never read one
 * differently.
 */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <openssl/evp.h>
#include <rpm/rpmfi.h>
#include <rpm/rpmarchive.h>	/* needs rpmfi.h first */
#include <rpm/rpmlib.h>

#include "package.h"
#include "payload_reader.h"

#define MAX_ENTRIES 4096

struct entry {
	int index;
	uint64_t size;
	uint8_t sha[32];
};

struct walk {
	struct entry e[MAX_ENTRIES];
	int n;
	int ended;		/* read to the archive's end, without error */
};

static char path[4096];

static void cleanup(void)
{
	unlink(path);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
	int fd;

	(void)argc;
	(void)argv;
	snprintf(path, sizeof(path), "%s/rpmverity-fuzz-payload-XXXXXX", tmp);
	fd = mkstemp(path);
	if (fd < 0)
		FUZZ_FAIL("mkstemp %s", path);
	close(fd);
	atexit(cleanup);
	if (rpmReadConfigFiles(NULL, NULL) != 0)
		FUZZ_FAIL("cannot read rpm configuration");
	return 0;
}

/* Read @size bytes with @rd into a digest; the bytes there were. */
static uint64_t hash_content(uint64_t size, uint8_t sha[32],
			     size_t (*rd)(void *src, void *buf, size_t len),
			     void *src)
{
	static uint8_t buf[65536];
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	uint64_t got = 0;

	if (!c || !EVP_DigestInit_ex(c, EVP_sha256(), NULL))
		FUZZ_FAIL("cannot hash");
	while (got < size) {
		size_t want = size - got < sizeof(buf) ? (size_t)(size - got) : sizeof(buf);
		size_t n = rd(src, buf, want);

		EVP_DigestUpdate(c, buf, n);
		got += n;
		if (n < want)
			break;
	}
	EVP_DigestFinal_ex(c, sha, NULL);
	EVP_MD_CTX_free(c);
	return got;
}

static size_t ours_read(void *src, void *buf, size_t len)
{
	return payload_reader_read(src, buf, len);
}

static size_t rpm_read(void *src, void *buf, size_t len)
{
	ssize_t n = rpmfiArchiveRead(src, buf, len);

	return n > 0 ? (size_t)n : 0;
}

/* Ours; 0, or -1 when it refused before the first entry. */
static int walk_ours(const struct package *pkg, rpmfiles files, struct walk *w)
{
	char *err = NULL;
	FD_t fd = package_open_payload(pkg, &err);
	struct payload_reader *r;
	int rc = -1;

	if (!fd) {
		free(err);
		return -1;
	}
	r = payload_reader_new(pkg->path, pkg->h, files, fd, &err);
	if (r) {
		struct payload_entry pe;

		while (w->n < MAX_ENTRIES &&
		       (rc = payload_reader_next(r, &pe, &err)) > 0) {
			struct entry *e = &w->e[w->n++];

			e->index = pe.index;
			e->size = hash_content(pe.size, e->sha, ours_read, r);
		}
		w->ended = rc == 0;
		rc = 0;
	}
	free(err);
	payload_reader_free(r);
	Fclose(fd);
	return rc;
}

static void walk_rpm(const struct package *pkg, rpmfiles files, struct walk *w)
{
	char *err = NULL;
	FD_t fd = package_open_payload(pkg, &err);
	rpmfi fi = fd ? rpmfiNewArchiveReader(fd, files, RPMFI_ITER_READ_ARCHIVE) : NULL;
	int rc = -1;

	while (fi && w->n < MAX_ENTRIES && (rc = rpmfiNext(fi)) >= 0) {
		struct entry *e = &w->e[w->n++];
		uint64_t size = 0;

		if (S_ISREG(rpmfiFMode(fi)) && rpmfiArchiveHasContent(fi))
			size = (uint64_t)rpmfiFSize(fi);
		e->index = rc;
		e->size = hash_content(size, e->sha, rpm_read, fi);
	}
	w->ended = rc == RPMERR_ITER_END;
	free(err);
	if (fi) {
		rpmfiArchiveClose(fi);
		rpmfiFree(fi);
	}
	if (fd)
		Fclose(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct walk ours, rpm;
	struct package pkg;
	rpmfiles files;
	char *err = NULL;
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		FUZZ_FAIL("cannot write %s", path);
	if (package_open(&pkg, path, &err) != 0) {
		free(err);
		return 0;
	}
	files = rpmfilesNew(NULL, pkg.h, RPMTAG_BASENAMES, PACKAGE_FI_FLAGS);
	memset(&ours, 0, sizeof(ours));
	memset(&rpm, 0, sizeof(rpm));
	/* librpm allocates a symlink's size as the header claims: not before
	 * ours has checked the header */
	if (files && walk_ours(&pkg, files, &ours) == 0 && ours.n < MAX_ENTRIES) {
		walk_rpm(&pkg, files, &rpm);
		for (int i = 0; i < ours.n; i++) {
			const struct entry *a = &ours.e[i], *b = &rpm.e[i];

			if (i >= rpm.n || a->index != b->index || a->size != b->size ||
			    memcmp(a->sha, b->sha, sizeof(a->sha)) != 0)
				FUZZ_FAIL("entry %d: ours file %d (%llu bytes), librpm's %s %d (%llu bytes)%s",
					  i, a->index, (unsigned long long)a->size,
					  i < rpm.n ? "file" : "nothing, after", i < rpm.n ? b->index : rpm.n,
					  i < rpm.n ? (unsigned long long)b->size : 0ULL,
					  i < rpm.n && a->index == b->index && a->size == b->size ?
					  ", other content" : "");
		}
		if (ours.ended && (!rpm.ended || rpm.n != ours.n))
			FUZZ_FAIL("ours read the archive to its end after %d entries, librpm %s after %d",
				  ours.n, rpm.ended ? "ended" : "failed", rpm.n);
	}
	rpmfilesFree(files);
	package_close(&pkg);
	return 0;
}
