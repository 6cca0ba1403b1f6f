// SPDX-License-Identifier: MIT
/*
 * rpmdb_blob.h says why. The layout is rpm's (lib/header.c, header blobs
 * without the 8-byte magic, as the rpmdb keeps them): big-endian numbers,
 * each entry {tag, type, offset into the data, count}. One of the four
 * tags twice is refused: rpm writes that when it changed a tag after
 * install (a relocated package's names), and which entry counts is then
 * headerImport's rule, so such a header is left to librpm.
 */
#include "rpmdb_blob.h"
#include "big_endian.h"
#include "rpm_tags.h"
#include <rpm/rpmstring.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define TAG_FILEMODES	1030
#define TAG_DIRINDEXES	1116
#define TAG_BASENAMES	1117
#define TAG_DIRNAMES	1118

#define TYPE_INT16	3
#define TYPE_INT32	4
#define TYPE_STRING_ARRAY 8


struct entry {
	uint32_t type, offset, count;
	bool found;
};

/* Whether @e holds @count fixed-size items of @size bytes in @dl. */
static bool fits(const struct entry *e, uint32_t type, size_t size,
		 uint32_t dl)
{
	return e->type == type && e->offset <= dl &&
	       (uint64_t)e->count * size <= dl - e->offset;
}

/*
 * The start of @e's strings in @data, each checked to end inside it;
 * NULL if one does not. @ptrs (may be NULL) gets a pointer to each.
 */
static const char *strings(const struct entry *e, const uint8_t *data,
			   uint32_t dl, const char **ptrs)
{
	uint32_t at = e->offset;

	if (e->type != TYPE_STRING_ARRAY || e->offset > dl)
		return NULL;
	for (uint32_t i = 0; i < e->count; i++) {
		const uint8_t *end = memchr(data + at, '\0', dl - at);

		if (!end)
			return NULL;
		if (ptrs)
			ptrs[i] = (const char *)data + at;
		at = (uint32_t)(end - data) + 1;
	}
	return (const char *)data + e->offset;
}

int rpmdb_blob_files(const uint8_t *blob, size_t len, rpmdb_file_fn fn,
		     void *ctx, const char **why)
{
	struct entry modes = { 0 }, idx = { 0 }, bases = { 0 }, dirs = { 0 };
	const uint8_t *data;
	const char **dirp, *base;
	uint32_t il, dl;

	if (len < 8) {
		*why = "shorter than a header";
		return -1;
	}
	il = be32(blob);
	dl = be32(blob + 4);
	if (il < 1 || il > RV_HEADER_MAX_TAGS || dl > RV_HEADER_MAX_DATA ||
	    len != 8 + (size_t)il * 16 + dl) {
		*why = "its lengths do not match its size";
		return -1;
	}
	data = blob + 8 + (size_t)il * 16;
	for (uint32_t i = 0; i < il; i++) {
		const uint8_t *e = blob + 8 + (size_t)i * 16;
		struct entry *want;

		switch (be32(e)) {
		case TAG_FILEMODES: want = &modes; break;
		case TAG_DIRINDEXES: want = &idx; break;
		case TAG_BASENAMES: want = &bases; break;
		case TAG_DIRNAMES: want = &dirs; break;
		default: continue;
		}
		if (want->found) {
			*why = "a file list tag appears twice";
			return -1;
		}
		*want = (struct entry){ be32(e + 4), be32(e + 8),
					be32(e + 12), true };
	}
	if (!bases.found)
		return 0;	/* no files */
	if (!dirs.found || !idx.found || !modes.found ||
	    idx.count != bases.count || modes.count != bases.count) {
		*why = "its file names, directories and modes do not match";
		return -1;
	}
	if (!fits(&idx, TYPE_INT32, 4, dl) || !fits(&modes, TYPE_INT16, 2, dl) ||
	    dirs.count > dl || !strings(&bases, data, dl, NULL)) {
		*why = "a file list entry lies outside the header";
		return -1;
	}
	dirp = rmalloc((dirs.count ? dirs.count : 1) * sizeof(*dirp));
	if (!strings(&dirs, data, dl, dirp)) {
		free(dirp);
		*why = "a directory name lies outside the header";
		return -1;
	}
	for (uint32_t i = 0; i < idx.count; i++)
		if (be32(data + idx.offset + (size_t)i * 4) >= dirs.count) {
			free(dirp);
			*why = "a file's directory index is out of range";
			return -1;
		}
	base = (const char *)data + bases.offset;
	for (uint32_t i = 0; i < bases.count; i++) {
		fn(ctx, dirp[be32(data + idx.offset + (size_t)i * 4)], base,
		   be16(data + modes.offset + (size_t)i * 2));
		base += strlen(base) + 1;
	}
	free(dirp);
	return 0;
}
