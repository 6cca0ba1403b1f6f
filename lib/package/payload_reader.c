// SPDX-License-Identifier: MIT
/*
 * See payload_reader.h. librpm's archive iterator (rpmfiNewArchiveReader)
 * reads each entry's magic, header, name, padding and content in separate
 * Freads, each timed by rpmio's stopwatch, and finds the entry's file by a
 * binary search of the file list under the string pool's lock, all on
 * the reader thread, whose pace is the pipeline's: on a package of many
 * small files, digests was slower with librpm's iterator than with this
 * reader (bench/README.md). Here the decompressed stream is read 64 KiB at a
 * time, the headers parsed in place, and an entry is first tried against
 * the file that follows the last one in the header's order, which is the
 * order rpmbuild writes.
 *
 * rpm installs what its own reader maps, so this one maps the same way
 * (rpm 4.18's lib/cpio.c and iterReadArchiveNext in lib/rpmfi.c):
 *  - a "070701" or "070702" entry is the header file of its path, as
 *    rpmfilesFindOFN finds it; a "07070X" entry names the file's index;
 *    "TRAILER!!!" and the index ffffffff end the archive;
 *  - the content that follows is as long as the header says, whatever
 *    the entry's own size field: a regular file's size, nothing for a
 *    hardlink member but the set's last (which carries the content), and
 *    a symbolic link's target, skipped (rpm reads it only as far as the
 *    entry's size field allows, and fails beyond);
 *  - %ghost files have no entry, and every other file has one.
 * The trial by order is taken only when no two header files share a path,
 * so it finds what rpmfilesFindOFN would; otherwise every entry is looked
 * up by rpmfilesFindOFN itself. Where rpm's parsing is lax (strtoul lets
 * a sign or spaces into a hex field, a name may lack its NUL), this one
 * is strict and refuses: it never reads an archive differently from rpm,
 * at most refuses one rpm would read. An entry for a file already seen
 * is refused too (rpm would write the file twice, and it would be signed
 * twice), as is a %ghost file with an entry.
 */
#include "payload_reader.h"
#include "file_msg.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <rpm/rpmstring.h>

#define READ_SIZE	(64 * 1024)
#define NEWC_SIZE	110	/* magic and 13 fields of 8 hex digits */
#define STRIPPED_SIZE	14	/* magic and the file index */
#define NAME_MAX_SIZE	4096	/* rpm's limit, the NUL included */
#define FILESIZE_AT	54	/* the newc size field */
#define NAMESIZE_AT	94	/* the newc name size field */

struct payload_reader {
	const char *pkg;
	rpmfiles files;
	FD_t fd;
	uint8_t *buf;
	size_t pos, len;	/* unread bytes: buf[pos, len) */
	int eof;
	uint64_t offset;	/* archive bytes consumed (for alignment) */
	uint64_t left;		/* of the current entry, not yet consumed */
	uint64_t entry_size;	/* the size field of a newc entry */
	int fc;
	unsigned char *seen;
	int by_order;		/* paths unique: try the next file first */
	int next;		/* the file after the last entry's */
	int dc;
	const char **reldn;	/* directory names, relative, by index */
	size_t *reldn_len;
};

/* At least @need (<= READ_SIZE) bytes at buf + pos, or all there are. */
static size_t have(struct payload_reader *r, size_t need)
{
	if (r->len - r->pos >= need)
		return r->len - r->pos;
	memmove(r->buf, r->buf + r->pos, r->len - r->pos);
	r->len -= r->pos;
	r->pos = 0;
	while (r->len < need && !r->eof) {
		ssize_t n = Fread(r->buf + r->len, 1, READ_SIZE - r->len, r->fd);

		if (n <= 0)	/* the end, or the decompressor's error */
			r->eof = 1;
		else
			r->len += (size_t)n;
	}
	return r->len - r->pos;
}

/* Consume @n bytes, copied to @dst unless it is NULL; the bytes there were. */
static uint64_t take(struct payload_reader *r, uint8_t *dst, uint64_t n)
{
	uint64_t done = 0;

	while (done < n) {
		size_t k;

		if (r->pos == r->len) {
			r->pos = r->len = 0;
			/* Much content: straight from the decompressor. */
			if (dst && n - done >= READ_SIZE && !r->eof) {
				size_t want = n - done > (1u << 30) ?
					      1u << 30 : (size_t)(n - done);
				ssize_t got = Fread(dst + done, 1, want, r->fd);

				if (got <= 0) {
					r->eof = 1;
					break;
				}
				done += (uint64_t)got;
				continue;
			}
			if (have(r, 1) == 0)
				break;
		}
		k = r->len - r->pos;
		if (k > n - done)
			k = (size_t)(n - done);
		if (dst)
			memcpy(dst + done, r->buf + r->pos, k);
		r->pos += k;
		done += k;
	}
	r->offset += done;
	return done;
}

/* The padding to the archive's next 4-byte boundary; 0, or -1 at its end. */
static int pad(struct payload_reader *r)
{
	uint64_t n = (4 - (r->offset & 3)) & 3;

	return take(r, NULL, n) == n ? 0 : -1;
}

/* Eight hex digits, no more and no less; -1 for anything else. */
static int64_t hex8(const uint8_t *p)
{
	uint32_t v = 0;

	for (int i = 0; i < 8; i++) {
		int c = p[i], d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return -1;
		v = v << 4 | (uint32_t)d;
	}
	return v;
}

/*
 * Header file @i's path as rpm compares it: its directory without the
 * leading '/' (*@dl bytes) and its base name; NULL for an index out of
 * range (librpm checks them; so do we).
 */
static const char *path_parts(const struct payload_reader *r, int i,
			      size_t *dl, const char **bn)
{
	int di = (int)rpmfilesDI(r->files, i);

	*bn = rpmfilesBN(r->files, i);
	if (di < 0 || di >= r->dc || !*bn)
		return NULL;
	*dl = r->reldn_len[di];
	return r->reldn[di];
}

/* Does header file @i have the path @fn (relative, @len bytes)? */
static int is_path(const struct payload_reader *r, int i, const char *fn,
		   size_t len)
{
	const char *bn;
	size_t dl;
	const char *dn = path_parts(r, i, &dl, &bn);

	return dn && len >= dl && memcmp(fn, dn, dl) == 0 &&
	       strcmp(fn + dl, bn) == 0;
}

/* Header file of the entry named @name (@len bytes), or -1. */
static int find_file(struct payload_reader *r, const char *name, size_t len)
{
	const char *fn = name;
	int i = r->next;

	/* rpmfilesFindOFN drops the same prefixes */
	if (fn[0] == '.' && fn[1] == '/')
		fn += 2;
	if (fn[0] == '/')
		fn += 1;
	len -= (size_t)(fn - name);
	if (r->by_order) {
		while (i < r->fc && (rpmfilesFFlags(r->files, i) & RPMFILE_GHOST))
			i++;
		if (i < r->fc && is_path(r, i, fn, len))
			return i;
	}
	return rpmfilesFindOFN(r->files, name);
}

/*
 * Can an entry be matched to the next file by order? Only if the paths
 * rpm compares (the directory without its leading '/', then the base
 * name) are all different, which a strictly ascending list shows, as
 * rpmbuild sorts it; and only if rpm compares the current paths, not
 * original ones a relocation left.
 */
static int unique_paths(struct payload_reader *r, Header h)
{
	char *prev = NULL, *cur = NULL;
	int ok = !headerIsEntry(h, RPMTAG_ORIGBASENAMES);

	for (int i = 0; ok && i < r->fc; i++) {
		const char *bn;
		size_t dl;
		const char *dn = path_parts(r, i, &dl, &bn);

		free(prev);
		prev = cur;
		cur = dn ? rstrscat(NULL, dn, bn, NULL) : NULL;
		ok = cur && (!prev || strcmp(prev, cur) < 0);
	}
	free(prev);
	free(cur);
	return ok;
}

/*
 * librpm reads a symlink's target into a buffer of the size the header
 * gives, and this reader skips that many bytes: a header claiming a
 * symlink of gigabytes would cost that much before anything else is
 * looked at. A symlink's size is its target's length; refuse any other.
 */
static int check_symlink_sizes(const struct payload_reader *r, char **err)
{
	for (int i = 0; i < r->fc; i++) {
		const char *target = rpmfilesFLink(r->files, i);
		uint64_t size = (uint64_t)rpmfilesFSize(r->files, i);
		size_t len = target ? strlen(target) : 0;

		if (!S_ISLNK(rpmfilesFMode(r->files, i)) ||
		    (rpmfilesFFlags(r->files, i) & RPMFILE_GHOST) || size == len)
			continue;
		*err = file_msg(r->pkg, r->files, i,
				"symbolic link of %llu bytes to a target of %zu (corrupted package)",
				(unsigned long long)size, len);
		return -1;
	}
	return 0;
}

struct payload_reader *payload_reader_new(const char *pkg, Header h,
					  rpmfiles files, FD_t payload,
					  char **err)
{
	struct payload_reader *r = rcalloc(1, sizeof(*r));
	int dc = rpmfilesDC(files);

	r->dc = dc;
	r->pkg = pkg;
	r->files = files;
	r->fd = payload;
	r->fc = rpmfilesFC(files);
	r->buf = rmalloc(READ_SIZE);
	r->seen = rcalloc((size_t)r->fc + 1, 1);
	r->reldn = rcalloc((size_t)dc + 1, sizeof(*r->reldn));
	r->reldn_len = rcalloc((size_t)dc + 1, sizeof(*r->reldn_len));
	for (int d = 0; d < dc; d++) {
		const char *dn = rpmfilesDN(files, d);

		if (!dn)
			dn = "";
		r->reldn[d] = dn[0] == '/' ? dn + 1 : dn;
		r->reldn_len[d] = strlen(r->reldn[d]);
	}
	if (check_symlink_sizes(r, err) != 0) {
		payload_reader_free(r);
		return NULL;
	}
	r->by_order = unique_paths(r, h);
	return r;
}

void payload_reader_free(struct payload_reader *r)
{
	if (!r)
		return;
	free(r->buf);
	free(r->seen);
	free(r->reldn);
	free(r->reldn_len);
	free(r);
}

static int truncated(const struct payload_reader *r, char **err)
{
	rasprintf(err, "%s: payload ends before the archive does (truncated or corrupted package)",
		  r->pkg);
	return -1;
}

/* The end of the archive: was every file but the %ghost ones there? */
static int archive_end(const struct payload_reader *r, char **err)
{
	for (int i = 0; i < r->fc; i++) {
		if (r->seen[i] || (rpmfilesFFlags(r->files, i) & RPMFILE_GHOST))
			continue;
		*err = file_msg(r->pkg, r->files, i,
				"missing from the payload (corrupted package)");
		return -1;
	}
	return 0;
}

/*
 * The header file of the entry at buf + pos, consumed with its padding:
 * its index, -1 with *@err set, or -2 for the archive's end.
 */
static int read_entry_header(struct payload_reader *r, char **err)
{
	const uint8_t *h;
	int64_t fx, size, namesize;
	int index;

	if (have(r, 6) < 6)
		return truncated(r, err);
	h = r->buf + r->pos;
	if (memcmp(h, "07070X", 6) == 0) {
		if (have(r, STRIPPED_SIZE) < STRIPPED_SIZE)
			return truncated(r, err);
		fx = hex8(r->buf + r->pos + 6);
		take(r, NULL, STRIPPED_SIZE);
		if (fx < 0 || pad(r) != 0)
			goto bad;
		if (fx == 0xffffffff)
			return -2;
		r->entry_size = UINT64_MAX;	/* no field: rpm reads on */
		if (fx >= r->fc) {
			rasprintf(err, "%s: payload entry for file %lld of %d (corrupted or crafted package)",
				  r->pkg, (long long)fx, r->fc);
			return -1;
		}
		return (int)fx;
	}
	if (memcmp(h, "070701", 6) != 0 && memcmp(h, "070702", 6) != 0)
		goto bad;
	if (have(r, NEWC_SIZE) < NEWC_SIZE)
		return truncated(r, err);
	h = r->buf + r->pos;
	size = hex8(h + FILESIZE_AT);
	namesize = hex8(h + NAMESIZE_AT);
	if (size < 0 || namesize < 1 || namesize > NAME_MAX_SIZE)
		goto bad;
	r->entry_size = (uint64_t)size;
	take(r, NULL, NEWC_SIZE);
	if (have(r, (size_t)namesize) < (size_t)namesize)
		return truncated(r, err);
	h = r->buf + r->pos;
	if (h[namesize - 1] != '\0' || memchr(h, '\0', (size_t)namesize - 1))
		goto bad;
	if (strcmp((const char *)h, "TRAILER!!!") == 0)
		return -2;
	index = find_file(r, (const char *)h, (size_t)namesize - 1);
	if (index < 0 || index >= r->fc) {
		rasprintf(err, "%s: payload entry \"%.256s\" is no file of the header (corrupted or crafted package)",
			  r->pkg, (const char *)h);
		return -1;
	}
	take(r, NULL, (uint64_t)namesize);
	if (pad(r) != 0)
		return truncated(r, err);
	return index;
bad:
	rasprintf(err, "%s: payload is not the cpio archive rpm writes (corrupted package)",
		  r->pkg);
	return -1;
}

int payload_reader_next(struct payload_reader *r, struct payload_entry *e,
			char **err)
{
	uint64_t size = 0;
	mode_t mode;
	int index;

	if (take(r, NULL, r->left) != r->left || pad(r) != 0)
		return truncated(r, err);
	r->left = 0;
	index = read_entry_header(r, err);
	if (index == -2)
		return archive_end(r, err) == 0 ? 0 : -1;
	if (index < 0)
		return -1;
	if (rpmfilesFFlags(r->files, index) & RPMFILE_GHOST) {
		*err = file_msg(r->pkg, r->files, index,
				"a %%ghost file with an entry in the payload (corrupted or crafted package)");
		return -1;
	}
	if (r->seen[index]) {
		*err = file_msg(r->pkg, r->files, index,
				"appears twice in the payload (corrupted or crafted package)");
		return -1;
	}
	r->seen[index] = 1;
	r->next = index + 1;

	mode = rpmfilesFMode(r->files, index);
	if (S_ISREG(mode)) {
		const int *links;
		uint32_t n = rpmfilesFLinks(r->files, index, &links);

		if (n <= 1 || links[n - 1] == index)
			size = (uint64_t)rpmfilesFSize(r->files, index);
	} else if (S_ISLNK(mode)) {
		/* rpm reads the target within the entry's own size */
		uint64_t target = (uint64_t)rpmfilesFSize(r->files, index);

		if (target > r->entry_size) {
			*err = file_msg(r->pkg, r->files, index,
					"symbolic link's payload entry is shorter than its target (corrupted package)");
			return -1;
		}
		if (take(r, NULL, target) != target)
			return truncated(r, err);
	}
	r->left = size;
	e->index = index;
	e->size = size;
	return 1;
}

size_t payload_reader_read(struct payload_reader *r, void *buf, size_t len)
{
	uint64_t got;

	if (len > r->left)
		len = (size_t)r->left;
	got = take(r, buf, len);
	r->left -= got;
	return (size_t)got;
}
