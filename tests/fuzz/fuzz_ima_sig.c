// SPDX-License-Identifier: MIT
/*
 * Fuzz target: an IMA sigv3 value as rpm-verity reads it back
 * (common/ima_sig.c), both as raw security.ima bytes and as the hex entry
 * of tag 274. Oracles: a value the parser accepts is written back byte for
 * byte, and its hex form parses to the same fields.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "hex.h"
#include "ima_sig.h"


static void check_raw(const uint8_t *data, size_t size)
{
	uint8_t *copy = malloc(size ? size : 1);	/* exact size for ASan */
	uint8_t out[IMA_VALUE_MAX], again[IMA_VALUE_MAX];
	char hex[2 * IMA_VALUE_MAX + 1];
	struct ima_sig s, t;

	if (!copy)
		return;
	memcpy(copy, data, size);
	if (ima_sig_parse(copy, size, &s) == IMA_SIG_OK) {
		if (ima_sig_write(&s, out, sizeof(out)) != size ||
		    memcmp(out, copy, size) != 0)
			FUZZ_FAIL("an accepted value is not written back as it was");
		hex_encode(copy, size, hex);
		if (ima_sig_parse_hex(hex, again, &t) != IMA_SIG_OK ||
		    t.keyid != s.keyid || t.sig_size != s.sig_size ||
		    memcmp(t.sig, s.sig, s.sig_size) != 0)
			FUZZ_FAIL("the hex form of an accepted value parses differently");
	}
	free(copy);
}

static void check_hex(const uint8_t *data, size_t size)
{
	char *hex = malloc(size + 1);
	uint8_t buf[IMA_VALUE_MAX];
	struct ima_sig s;
	int rc;

	if (!hex)
		return;
	memcpy(hex, data, size);
	hex[size] = '\0';
	rc = ima_sig_parse_hex(hex, buf, &s);
	if (rc > 0 || (rc == IMA_SIG_OK && (s.sig < buf + IMA_SIG_HDR_SIZE ||
					      s.sig + s.sig_size > buf + IMA_VALUE_MAX)))
		FUZZ_FAIL("ima_sig_parse_hex returned %d with sig outside its buffer", rc);
	free(hex);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check_raw(data, size);
	check_hex(data, size);
	return 0;
}
