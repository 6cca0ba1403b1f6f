// SPDX-License-Identifier: MIT
/*
 * The IMA half of `rpm-verity verify`: with the fs-verity digests the
 * verity pass computed, each file's security.ima value is checked the way
 * the kernel will check it at exec time (ima_sigs.c), offline.
 */
#include "ima_verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rpm/rpmstring.h>
#include <rpm/rpmtd.h>

#include "file_rule.h"
#include "file_msg.h"
#include "ima_sig.h"
#include "ima_sigs.h"

/* NULL if @hex is the right entry for a file, else the problem. */
static char *check_entry(const char *hex, int signable, const uint8_t *digest,
			 X509 *cert, uint32_t keyid,
			 const struct verity_hash_alg *alg)
{
	uint8_t value[IMA_VALUE_MAX];
	ssize_t len;
	char *why = NULL;

	if (!signable)
		return *hex ? rstrdup("IMA signature on a file that gets no fs-verity signature") : NULL;
	if (!*hex)
		return rstrdup("no IMA signature");
	if (!digest)
		return rstrdup("no fs-verity digest to check the IMA signature against");
	len = ima_hex_decode(hex, value, sizeof(value));
	if (len < 0) {
		rasprintf(&why, "IMA signature entry: %s",
			  len == IMA_SIG_EHEX ? "not a hex string" : "too long");
		return why;
	}
	if (ima_verify_value(cert, keyid, alg, digest, value, (size_t)len,
			     &why) == 0)
		return NULL;
	return why;
}

int ima_verify_package(const struct package *pkg, rpmfiles files,
		       X509 *cert, const char *certpath,
		       const struct verity_hash_alg *alg,
		       const uint8_t *digests, const unsigned char *known,
		       char **err)
{
	struct rpmtd_s sigs, lentd;
	int count = rpmfilesFC(files), bad = -1;
	uint32_t keyid, longest = 0;
	const char **entries;

	rpmtdReset(&sigs);
	rpmtdReset(&lentd);
	if (ima_keyid_of_cert(cert, certpath, &keyid, err) != 0)
		return -1;
	if (!headerGet(pkg->sigh, IMA_TAG_SIGNATURES, &sigs, HEADERGET_MINMEM) ||
	    sigs.type != RPM_STRING_ARRAY_TYPE) {
		rasprintf(err, "%s: no IMA signatures", pkg->path);
		goto out;
	}
	if (rpmtdCount(&sigs) != (rpm_count_t)count) {
		rasprintf(err, "%s: %u IMA signatures for %d files", pkg->path,
			  rpmtdCount(&sigs), count);
		goto out;
	}
	entries = sigs.data;
	bad = 0;
	for (int i = 0; i < count; i++) {
		const uint8_t *d = known[i] ? digests +
				   (size_t)i * VERITY_MAX_DIGEST_SIZE : NULL;
		char *why = check_entry(entries[i], verity_files_signed(files, i),
					d, cert, keyid, alg);
		char *msg;

		if (strlen(entries[i]) / 2 > longest)
			longest = (uint32_t)(strlen(entries[i]) / 2);
		if (!why)
			continue;
		msg = file_msg(pkg->path, files, i, "%s", why);
		puts(msg);
		free(msg);
		free(why);
		bad++;
	}
	/* rpm 4.18 reads each entry at its own length; older rpm used tag 275. */
	if (!headerGet(pkg->sigh, IMA_TAG_SIGLENGTH, &lentd, HEADERGET_MINMEM) ||
	    lentd.type != RPM_INT32_TYPE || *rpmtdGetUint32(&lentd) < longest) {
		printf("%s: IMA signature length tag (275) missing or shorter than the longest signature (%u bytes)\n",
		       pkg->path, longest);
		bad++;
	}
	if (!bad)
		printf("%s: %d files, IMA signatures OK (sigv3, %s, key id %08x)\n",
		       pkg->path, count, alg->name, keyid);
out:
	rpmtdFreeData(&sigs);
	rpmtdFreeData(&lentd);
	return bad;
}
