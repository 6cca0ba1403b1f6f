/* SPDX-License-Identifier: MIT */
/*
 * The manifest: what the build side sends the signing side. Per package
 * its identity (NEVRA and a binding digest) and each file's fs-verity
 * digest, or "none" for entries that get no signature. Line oriented and
 * versioned (rpm-verity(1) documents it); nothing in it is secret. The
 * signature file (sigfile.h) has the same shape with a signature added to
 * each digest, and is read and written by the same code.
 */
#ifndef RPMVERITY_MANIFEST_H
#define RPMVERITY_MANIFEST_H

#include <stdint.h>
#include <stdio.h>

#include "line_reader.h"
#include "verity_format.h"

#define BINDING_SIZE		32		/* SHA-256 */
#define MANIFEST_MAX_FILES	(1u << 24)	/* per package; rpm keeps far fewer */
#define MANIFEST_MAX_NEVRA	1024
#define MANIFEST_MAX_LINE	32768		/* a base64 signature of 16,128 bytes fits */

struct manifest_package {
	char *nevra;
	uint8_t binding[BINDING_SIZE];	/* SHA-256 of the stored main header */
	uint32_t count;			/* files in the package's header */
	const struct verity_hash_alg *alg;	/* of every digest; NULL if none */
	uint8_t *digests;		/* count * VERITY_MAX_DIGEST_SIZE */
	unsigned char *present;		/* 0: "none", no signature */
	/* signature files only: base64 DER PKCS#7 per file ("" for none) */
	char **sigs;
	/*
	 * signature files only: the hex security.ima value (IMA sigv3) per
	 * file, NULL for none. Either every signed file has one (nima is the
	 * number of signed files) or none has (nima is 0).
	 */
	char **ima;
	uint32_t nima;
	uint32_t nsigned;	/* signed files read so far */
};

/* Room for @count files, all "none"; 0 or -1 (out of memory). */
int manifest_package_init(struct manifest_package *p, const char *nevra,
			  uint32_t count);
void manifest_package_free(struct manifest_package *p);

static inline uint8_t *manifest_digest(const struct manifest_package *p,
				       uint32_t index)
{
	return p->digests + (size_t)index * VERITY_MAX_DIGEST_SIZE;
}

/*
 * One of the two line formats: the first line's word, the word that starts
 * each file's line, and what follows the digest on it (signature files: the
 * signature). A format may also let an optional line starting with @follow
 * come after each file's line (signature files: its IMA signature).
 * parse_follow is then called after every file's line, with the optional
 * line's fields after the word, or with @fields NULL when it is absent, so
 * that it can tell a line that is missing.
 */
struct manifest_format {
	const char *magic;
	const char *entry;
	int extra_fields;
	int (*parse_extra)(const struct line_reader *r,
			   struct manifest_package *p, uint32_t index,
			   char *const *fields, char **err);
	int (*write_extra)(FILE *out, const struct manifest_package *p,
			   uint32_t index);
	const char *follow;
	int (*parse_follow)(const struct line_reader *r,
			    struct manifest_package *p, uint32_t index,
			    char *const *fields, int nfields, char **err);
	/* writes the whole line, or nothing when file @index has none */
	int (*write_follow)(FILE *out, const struct manifest_package *p,
			    uint32_t index);
};
extern const struct manifest_format manifest_format;	/* here */
extern const struct manifest_format sigfile_format;	/* sigfile.c */

/* Writing: the header line, each package, then the end line. 0 or -1 (errno). */
int manifest_write_start(FILE *out, const struct manifest_format *f);
int manifest_write_package(FILE *out, const struct manifest_format *f,
			   const struct manifest_package *p);
int manifest_write_end(FILE *out, const struct manifest_format *f,
		       unsigned long npackages);

struct manifest_reader {
	struct line_reader lines;
	const struct manifest_format *f;
	unsigned long packages;
	int started, ended;
	int held;	/* the next line was read ahead: held_rc is line_next's */
	int held_rc;
};

void manifest_reader_init(struct manifest_reader *r,
			  const struct manifest_format *f, FILE *in,
			  const char *name);
void manifest_reader_free(struct manifest_reader *r);

/*
 * The next package. Returns 1 with *@p filled (free it with
 * manifest_package_free), 0 after the end line (the input must end there),
 * or -1 with "NAME: line N: reason" in *@err. Refused: a missing or unknown
 * version line, bad hex, an unknown algorithm or several in one package,
 * file indexes out of order, fewer or more file lines than the package
 * line announced, counts beyond MANIFEST_MAX_FILES, truncated lines, input
 * that stops before the end line, and anything after it.
 */
int manifest_read_package(struct manifest_reader *r,
			  struct manifest_package *p, char **err);

/*
 * Parse a whole manifest or signature file held in memory, for fuzzing:
 * 0 when it is valid, -1 when refused (the reason is freed).
 */
int manifest_parse_buffer(const struct manifest_format *f, const uint8_t *data,
			  size_t size);

#endif
