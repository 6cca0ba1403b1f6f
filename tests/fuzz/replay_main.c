// SPDX-License-Identifier: MIT
/*
 * The main() a fuzz target gets when it is not built with libFuzzer (gcc,
 * or clang without RPMVERITY_FUZZ): it runs each file named on the command
 * line through the target once, so the corpora and saved crash inputs are
 * regression tests in every build, under that build's sanitizers.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"

__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f) {
		perror(path);
		return -1;
	}
	do {
		if (len == cap) {
			uint8_t *more;

			cap = cap ? 2 * cap : 65536;
			more = realloc(buf, cap);
			if (!more) {
				fprintf(stderr, "%s: out of memory\n", path);
				free(buf);
				fclose(f);
				return -1;
			}
			buf = more;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	fclose(f);
	/* An exact-size copy, so ASan sees reads past the input's end. */
	{
		uint8_t *exact = malloc(len ? len : 1);

		if (!exact) {
			free(buf);
			return -1;
		}
		for (size_t i = 0; i < len; i++)
			exact[i] = buf[i];
		free(buf);
		LLVMFuzzerTestOneInput(exact, len);
		free(exact);
	}
	return 0;
}

int main(int argc, char **argv)
{
	int bad = 0;

	LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++) {
		if (argv[i][0] == '-')	/* libFuzzer flags: not ours */
			continue;
		bad |= run_file(argv[i]) != 0;
	}
	printf("%d inputs replayed\n", argc - 1);
	return bad;
}
