/* SPDX-License-Identifier: MIT */
/*
 * The signer's whole reading of a package, driven as a user drives it
 * (sign, verify, strip, through their command entry points), with the
 * promises checked on every input: no crash, no leak, a failed command
 * leaves the input as it was and writes nothing, a signed package passes
 * its own verify, and the payload reader hands each file over once.
 */
#ifndef RPMVERITY_FUZZ_PACKAGE_HARNESS_H
#define RPMVERITY_FUZZ_PACKAGE_HARNESS_H

#include <stddef.h>
#include <stdint.h>

void package_harness_init(void);
void package_harness_run(const uint8_t *data, size_t size);

/*
 * Rewrite @data in place so the signature header's size tags and the main
 * header's payload digest (SHA-256) agree with the bytes, where the tags
 * are where rpm puts them; anything else is left for the reader to refuse.
 */
void package_fixup(uint8_t *data, size_t size);

#endif
