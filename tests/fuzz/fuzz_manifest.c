// SPDX-License-Identifier: MIT
/*
 * Fuzz target: the manifest parser (lib/split/manifest.c), which reads
 * what crosses the boundary between build and signing hosts.
 */
#include <stddef.h>
#include <stdint.h>

#include "manifest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	manifest_parse_buffer(&manifest_format, data, size);
	return 0;
}
