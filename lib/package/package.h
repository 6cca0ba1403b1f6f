/* SPDX-License-Identifier: MIT */
/*
 * An RPM package as the signer sees it: the lead and the signature header,
 * which it may replace, and the main header and payload, which it reads but
 * never changes (so every digest and GPG signature over them stays valid).
 */
#ifndef RPMVERITY_PACKAGE_H
#define RPMVERITY_PACKAGE_H

#include <stdint.h>
#include <sys/types.h>
#include <rpm/header.h>
#include <rpm/rpmfiles.h>
#include <rpm/rpmio.h>

#include "big_endian.h"	/* header lengths are be32 */

/* Limits rpm 4.18 applies when it reads a signature header (lib/header.c). */
#define SIG_HEADER_MAX_TAGS	32
#define SIG_HEADER_MAX_DATA	(64u * 1024 * 1024)

/*
 * What the signer reads of a package's file list (rpmfilesNew): names,
 * modes, flags, sizes, symlink targets and inodes, which make the hardlink
 * sets. The rest (file digests, owners, times, signatures...) is left
 * unread, which makes rpmfilesNew much cheaper (bench/README.md).
 */
#define PACKAGE_FI_FLAGS \
	(RPMFI_FLAGS_QUERY | RPMFI_NOFILEUSER | RPMFI_NOFILEGROUP | \
	 RPMFI_NOFILECAPS | RPMFI_NOFILEDIGESTS | RPMFI_NOFILEMTIMES | \
	 RPMFI_NOFILERDEVS | RPMFI_NOFILESTATES | RPMFI_NOFILESIGNATURES | \
	 RPMFI_NOVERITYSIGNATURES)

struct package {
	const char *path;
	int fd;
	off_t size;
	uint8_t lead[96];
	Header sigh;		/* signature header, as read */
	size_t sighdr_size;	/* its bytes in the file, magic included,
				   padding not */
	Header h;		/* main header */
	off_t header_start;	/* main header, after the padded signature */
	off_t payload_start;
};

/*
 * Open and check @path; on failure return -1 with a message (naming the
 * file) in *@err, which the caller frees.
 */
int package_open(struct package *pkg, const char *path, char **err);
void package_close(struct package *pkg);

/* A decompressing reader positioned at the payload's first byte. */
FD_t package_open_payload(const struct package *pkg, char **err);

/*
 * Write the package with @sigh as its signature header to @dest: a
 * temporary file beside it, fsync, then rename, so @dest is either as it
 * was or complete. The main header and payload are copied byte for byte.
 * The signature header is sized as rpmsign sizes it (package_sighdr_bytes).
 */
int package_write(const struct package *pkg, Header sigh, const char *dest,
		  char **err);

/*
 * The signature header @sigh as it sits in a package: the bytes between the
 * 96-byte lead and the main header, padding included (what Koji stores and
 * splices). malloc'ed; NULL with a message when rpm would not read it.
 *
 * As rpmsign does, the reserved-space tag (999 RESERVED in v6 packages,
 * 1008 RESERVEDSPACE before) takes up the difference between @sigh and the
 * signature header @pkg was read with: it grows by what was removed, and
 * shrinks by what was added when that leaves it at least one byte, so the
 * package keeps its size. When the additions do not fit, it stays as it
 * was and the package grows.
 */
uint8_t *package_sighdr_bytes(const struct package *pkg, Header sigh,
			      size_t *len, char **err);

/*
 * Check the main header against the signature header's digest of it
 * (RPMSIGTAG_SHA256, else RPMSIGTAG_SHA1), and the compressed payload
 * against the digest the main header carries (RPMTAG_PAYLOADDIGEST), so a
 * corrupted package is refused before it is written or any signature it
 * gets leaves the process. Packages without those tags pass.
 * @header_sha256 is the main header's SHA-256 when the caller has it.
 */
int package_check_digests(const struct package *pkg,
			  const uint8_t *header_sha256, char **err);

/* The two checks apart. */
int package_check_header(const struct package *pkg,
			 const uint8_t *header_sha256, char **err);
int package_check_payload(const struct package *pkg, char **err);

/*
 * The payload check in two steps, so that payload_digests() can run the
 * second on a worker while it decompresses: what the main header records
 * (rpm's algorithm number and the hex digest; none when @hex is NULL),
 * read on the thread that owns the header; then the payload against it,
 * which reads only the file and may run on any thread. Free @hex.
 */
struct payload_expect {
	int algo;
	char *hex;
};
int package_payload_expect(const struct package *pkg,
			   struct payload_expect *e, char **err);
int package_payload_verify(const struct package *pkg,
			   const struct payload_expect *e, char **err);

#endif
