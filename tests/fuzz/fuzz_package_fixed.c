// SPDX-License-Identifier: MIT
/*
 * Fuzz target: like fuzz_package, but the input's size tags and payload
 * digest are made to agree with its bytes first (package_fixup.c), as an
 * attacker who builds a package would make them, so mutations of the
 * headers' file lists and of the cpio archive reach the payload reader.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "package_harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy = malloc(size ? size : 1);

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	package_fixup(copy, size);
	package_harness_run(copy, size);
	free(copy);
	return 0;
}
