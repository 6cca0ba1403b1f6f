/* SPDX-License-Identifier: MIT */
/*
 * The one decoder of a package's file signature tags: fs-verity (276
 * VERITYSIGNATURES, 277 VERITYSIGNATUREALGO) and IMA (274/275 in a
 * signature header, 5090/5091 once rpm has installed it). The plugin,
 * verify, inject, strip and the audit all read the tags through it, so
 * every one of them checks the same things: each tag's type and count
 * against the package's file count, each entry's encoding, and the
 * algorithm. It never fails on bad data: it says why, in words, for the
 * package or for the one file, and leaves the policy to the caller.
 */
#ifndef RPMVERITY_PACKAGE_SIGS_H
#define RPMVERITY_PACKAGE_SIGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rpm/header.h>

#include "verity_format.h"

/* Where the tags are read from. */
enum package_sigs_header {
	PACKAGE_SIGS_SIGHEADER,	/* a package's signature header: 274-277 */
	PACKAGE_SIGS_INSTALLED,	/* a main or rpmdb header: 276/277, 5090/5091 */
};

enum file_sig_state {
	FILE_SIG_NONE,		/* empty entry: the file is not signed */
	FILE_SIG_OK,		/* .bytes holds the decoded signature */
	FILE_SIG_MALFORMED,	/* .problem says why */
};

struct file_sig {
	enum file_sig_state state;
	uint8_t *bytes;		/* FILE_SIG_OK: DER PKCS#7, or the IMA value */
	size_t len;
	const char *problem;	/* FILE_SIG_MALFORMED: why, in words */
};

/*
 * One kind of signature (fs-verity or IMA) across a package's files. A
 * lone 277 or 275 (no entries) does not make the kind present, as for rpm,
 * but a malformed one is still a problem: check problem first.
 */
struct sig_table {
	bool present;		/* the package carries the entry tag */
	const char *problem;	/* non-NULL: the tags as a whole are unusable */
	struct file_sig *files;	/* nfiles entries when present && !problem */
	char why[160];		/* problem's text, when it has numbers in it */
};

struct package_sigs {
	size_t nfiles;
	struct sig_table verity;
	/* The fs-verity algorithm (rpm's default, SHA-256, without tag 277);
	 * NULL only when verity.problem says it is unusable. */
	const struct verity_hash_alg *alg;
	uint32_t alg_id;	/* tag 277's value (1 without it) */
	struct sig_table ima;
};

/*
 * Decode the signature tags of @h, which describes @nfiles files (the main
 * header's file count, in header order). Returns NULL only when out of
 * memory.
 */
struct package_sigs *package_sigs_decode(Header h,
					 enum package_sigs_header where,
					 size_t nfiles);
void package_sigs_free(struct package_sigs *ps);

/* The number of files a main or rpmdb header lists (its BASENAMES). */
size_t package_sigs_file_count(Header h);

#endif
