/* SPDX-License-Identifier: MIT */
/*
 * What every fuzz target defines (libFuzzer's entry points) and the few
 * helpers the targets share. A target is one LLVMFuzzerTestOneInput that
 * feeds the bytes to one parser and aborts on anything the parser must
 * never do (a crash, a leak or, where there is an oracle, a wrong answer).
 */
#ifndef RPMVERITY_FUZZ_H
#define RPMVERITY_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* Optional: once, before the first input. */
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* Where the committed fuzz files live (tests/fuzz), set by CMake. */
#ifndef FUZZ_DIR
#define FUZZ_DIR "."
#endif
#define FUZZ_CERT FUZZ_DIR "/key/cert.pem"
#define FUZZ_KEY FUZZ_DIR "/key/signing-key.pem"

/* Print why and abort: the fuzzer saves the input that got here. */
#define FUZZ_FAIL(...) do {						\
	fprintf(stderr, "fuzz oracle: " __VA_ARGS__);			\
	fputc('\n', stderr);						\
	abort();							\
} while (0)

#endif
