/* SPDX-License-Identifier: MIT */
/*
 * A package's cpio payload, entry by entry, read from the decompressed
 * stream in large blocks, each entry mapped to its header file as rpm 4.18
 * maps it when it installs the package. It replaces librpm's archive
 * iterator on the digest pipeline's reader thread, whose pace sets the
 * whole pipeline's (payload_reader.c says why and how the two agree).
 */
#ifndef RPMVERITY_PAYLOAD_READER_H
#define RPMVERITY_PAYLOAD_READER_H

#include <stdint.h>
#include <rpm/header.h>
#include <rpm/rpmfiles.h>
#include <rpm/rpmio.h>

struct payload_reader;

struct payload_entry {
	int index;		/* the header file this entry is */
	uint64_t size;		/* content bytes that follow: nonzero only
				 * for a regular file that carries its
				 * content (for a hardlink set, its last
				 * member) */
};

/*
 * A reader of the archive in @payload (decompressing, positioned at its
 * first byte; the caller keeps and closes it) for @files, the files of
 * the main header @h. @pkg names the package in messages. NULL with a message in *@err
 * when the header itself is unfit to read a payload by.
 */
struct payload_reader *payload_reader_new(const char *pkg, Header h,
					  rpmfiles files, FD_t payload,
					  char **err);
void payload_reader_free(struct payload_reader *r);

/*
 * The next entry, past whatever of the current one's content was not read:
 * 1, 0 at the archive's end (every header file but %ghost ones seen), or
 * -1 with a message naming the package and, where it applies, the file.
 * Each header file has at most one entry.
 */
int payload_reader_next(struct payload_reader *r, struct payload_entry *e,
			char **err);

/*
 * Up to @len bytes of the current entry's content into @buf; fewer only
 * when the content ends or the payload does (truncated or undecodable).
 */
size_t payload_reader_read(struct payload_reader *r, void *buf, size_t len);

#endif
