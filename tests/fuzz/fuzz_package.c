// SPDX-License-Identifier: MIT
/*
 * Fuzz target: a whole package file, lead through cpio payload, as
 * rpm-verity sign, verify and strip read it (package_harness.c). Most
 * mutations stop at the size or payload digest check; fuzz_package_fixed
 * gets past them.
 */
#include "fuzz.h"
#include "package_harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	package_harness_run(data, size);
	return 0;
}
