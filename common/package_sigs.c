// SPDX-License-Identifier: MIT
/*
 * The tag decoder package_sigs.h describes. librpm's own (behind
 * rpmfiVSignature) drops every signature of a package when one entry is
 * bad base64, says so only at debug level, and takes an entry of any type;
 * this one keeps the good entries, names the bad one, and checks the type
 * and count of every tag before it reads a byte of it.
 */
#include "package_sigs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rpm/rpmbase64.h>
#include <rpm/rpmtag.h>
#include <rpm/rpmtd.h>

#include "ima_sig.h"

#define INSTALLED_IMA_SIGNATURES	5090	/* RPMTAG_FILESIGNATURES */
#define INSTALLED_IMA_SIGLENGTH		5091	/* RPMTAG_FILESIGNATURELENGTH */

size_t package_sigs_file_count(Header h)
{
	struct rpmtd_s td;
	size_t n = 0;

	if (headerGet(h, RPMTAG_BASENAMES, &td, HEADERGET_MINMEM)) {
		n = rpmtdCount(&td);
		rpmtdFreeData(&td);
	}
	return n;
}

/* One fs-verity entry: base64 of a DER PKCS#7 SignedData, or empty. */
static void decode_verity_entry(const char *b64, struct file_sig *f)
{
	void *raw = NULL;
	size_t raw_len = 0;
	ssize_t der_len;
	bool tail_zero = true;

	f->state = FILE_SIG_MALFORMED;
	if (*b64 == '\0') {
		f->state = FILE_SIG_NONE;
		return;
	}
	if (rpmBase64Decode(b64, &raw, &raw_len) != 0) {
		free(raw);
		f->problem = "malformed signature: not valid base64";
		return;
	}
	der_len = verity_sig_length(raw, raw_len);
	if (der_len == 0) {
		f->state = FILE_SIG_NONE;
	} else if (der_len < 0) {
		f->problem = raw_len > VERITY_MAX_SIG_SIZE ?
			"malformed signature: larger than the kernel accepts" :
			"malformed signature: truncated or not DER";
	} else {
		/* rpm pads every entry to the longest one with zero bytes. */
		for (size_t i = (size_t)der_len; i < raw_len; i++)
			tail_zero &= ((uint8_t *)raw)[i] == 0;
		if (!tail_zero)
			f->problem = "malformed signature: bytes after its end";
		else if (!verity_sig_is_signed_data(raw, (size_t)der_len))
			f->problem = "malformed signature: not a PKCS#7 signature";
		else
			f->state = FILE_SIG_OK;
	}
	if (f->state == FILE_SIG_OK) {
		f->bytes = raw;
		f->len = (size_t)der_len;
	} else {
		free(raw);
	}
}

/* One IMA entry: hex of a security.ima value, or empty. */
static void decode_ima_entry(const char *hex, struct file_sig *f)
{
	uint8_t *buf;
	ssize_t n;

	if (*hex == '\0') {
		f->state = FILE_SIG_NONE;
		return;
	}
	f->state = FILE_SIG_MALFORMED;
	buf = malloc(IMA_VALUE_MAX);
	if (buf == NULL) {
		f->problem = "out of memory";
		return;
	}
	n = ima_hex_decode(hex, buf, IMA_VALUE_MAX);
	if (n <= 0) {
		free(buf);
		f->problem = n == IMA_SIG_ESIZE ?
			"malformed IMA signature: larger than rpm allows" :
			"malformed IMA signature: not hex";
		return;
	}
	f->state = FILE_SIG_OK;
	f->bytes = buf;
	f->len = (size_t)n;
}

/* rpm's name for a tag type, for the reasons given in words. */
static const char *type_name(rpmTagType type)
{
	switch (type) {
	case RPM_CHAR_TYPE:		return "CHAR";
	case RPM_INT8_TYPE:		return "INT8";
	case RPM_INT16_TYPE:		return "INT16";
	case RPM_INT32_TYPE:		return "INT32";
	case RPM_INT64_TYPE:		return "INT64";
	case RPM_STRING_TYPE:		return "STRING";
	case RPM_BIN_TYPE:		return "BIN";
	case RPM_STRING_ARRAY_TYPE:	return "STRING_ARRAY";
	case RPM_I18NSTRING_TYPE:	return "I18NSTRING";
	default:			return "an unknown type";
	}
}

/* The tag's type and count as stored, without converting anything. */
static bool tag_shape(Header h, rpmTagVal tag, rpmTagType *type,
		      rpm_count_t *count)
{
	struct rpmtd_s td;

	if (!headerGet(h, tag, &td, HEADERGET_MINMEM | HEADERGET_RAW))
		return false;
	*type = rpmtdType(&td);
	*count = rpmtdCount(&td);
	rpmtdFreeData(&td);
	return true;
}

/*
 * The entry tag of a kind: a string array with one entry per file, decoded
 * with @decode. Sets @t->problem when its shape is wrong; @kind names the
 * signatures in it.
 */
static void read_entries(Header h, rpmTagVal tag, size_t nfiles,
			 void (*decode)(const char *, struct file_sig *),
			 struct sig_table *t, const char *kind)
{
	struct rpmtd_s td;
	rpmTagType type;
	rpm_count_t count;
	const char *s;
	size_t i = 0;

	if (!tag_shape(h, tag, &type, &count))
		return;
	t->problem = t->why;
	if (type != RPM_STRING_ARRAY_TYPE) {
		snprintf(t->why, sizeof(t->why), "malformed %s signature tag "
			 "(%u): %s, not a string array", kind, (unsigned)tag,
			 type_name(type));
		return;
	}
	if (count != nfiles) {
		snprintf(t->why, sizeof(t->why), "the package has a different "
			 "number of %s signatures than files (%u in tag %u for "
			 "%zu files)", kind, (unsigned)count, (unsigned)tag,
			 nfiles);
		return;
	}
	t->problem = NULL;
	if (!headerGet(h, tag, &td, HEADERGET_MINMEM)) {
		t->problem = "out of memory";
		return;
	}
	t->files = calloc(nfiles ? nfiles : 1, sizeof(*t->files));
	if (t->files == NULL)
		t->problem = "out of memory";
	while (t->files && i < nfiles && (s = rpmtdNextString(&td)))
		decode(s, &t->files[i++]);
	rpmtdFreeData(&td);
}

/*
 * The value of @tag, which must be one 32-bit number; false (the reason
 * in @t) if it is not. @value is untouched without the tag.
 */
static bool read_uint32(Header h, rpmTagVal tag, const char *what,
			uint32_t *value, struct sig_table *t)
{
	struct rpmtd_s td;
	rpmTagType type;
	rpm_count_t count;

	if (!tag_shape(h, tag, &type, &count))
		return true;
	if (type != RPM_INT32_TYPE || count != 1) {
		snprintf(t->why, sizeof(t->why), "malformed %s tag (%u): %s "
			 "with %u entries, not one 32-bit number", what,
			 (unsigned)tag, type_name(type), (unsigned)count);
		t->problem = t->why;
		return false;
	}
	if (!headerGet(h, tag, &td, HEADERGET_MINMEM)) {
		t->problem = "out of memory";
		return false;
	}
	*value = *rpmtdGetUint32(&td);
	rpmtdFreeData(&td);
	return true;
}

static void decode_verity(Header h, struct package_sigs *ps)
{
	struct sig_table *t = &ps->verity;

	t->present = headerIsEntry(h, VERITY_TAG_SIGNATURES);
	ps->alg_id = 1;		/* rpm's default without tag 277: SHA-256 */
	if (!read_uint32(h, VERITY_TAG_ALGO, "fs-verity algorithm",
			 &ps->alg_id, t))
		return;
	ps->alg = verity_hash_alg_by_id(ps->alg_id);
	if (ps->alg == NULL) {
		snprintf(t->why, sizeof(t->why), "unknown fs-verity hash "
			 "algorithm (%u) in tag %u", (unsigned)ps->alg_id,
			 (unsigned)VERITY_TAG_ALGO);
		t->problem = t->why;
		return;
	}
	read_entries(h, VERITY_TAG_SIGNATURES, ps->nfiles, decode_verity_entry,
		     t, "fs-verity");
}

static void decode_ima(Header h, enum package_sigs_header where,
		       struct package_sigs *ps)
{
	rpmTagVal sigs = where == PACKAGE_SIGS_SIGHEADER ?
		IMA_TAG_SIGNATURES : INSTALLED_IMA_SIGNATURES;
	rpmTagVal length = where == PACKAGE_SIGS_SIGHEADER ?
		IMA_TAG_SIGLENGTH : INSTALLED_IMA_SIGLENGTH;
	struct sig_table *t = &ps->ima;
	uint32_t longest;

	t->present = headerIsEntry(h, sigs);
	if (!read_uint32(h, length, "IMA signature length", &longest, t))
		return;
	read_entries(h, sigs, ps->nfiles, decode_ima_entry, t, "IMA");
}

struct package_sigs *package_sigs_decode(Header h,
					 enum package_sigs_header where,
					 size_t nfiles)
{
	struct package_sigs *ps = calloc(1, sizeof(*ps));

	if (ps == NULL)
		return NULL;
	ps->nfiles = nfiles;
	decode_verity(h, ps);
	decode_ima(h, where, ps);
	return ps;
}

static void free_table(struct sig_table *t, size_t nfiles)
{
	for (size_t i = 0; t->files && i < nfiles; i++)
		free(t->files[i].bytes);
	free(t->files);
}

void package_sigs_free(struct package_sigs *ps)
{
	if (ps == NULL)
		return;
	free_table(&ps->verity, ps->nfiles);
	free_table(&ps->ima, ps->nfiles);
	free(ps);
}
