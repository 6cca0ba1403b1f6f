/* SPDX-License-Identifier: MIT */
/*
 * The few lines of test harness the C tests need (tests/unit and
 * tests/signer's payload-faults); the shell tests' is testlib.sh beside it.
 */
#ifndef RPMVERITY_CHECK_H
#define RPMVERITY_CHECK_H

#include <stdio.h>
#include <stdlib.h>

static int check_failures;
static int check_count;

#define CHECK(cond) do {						\
	check_count++;							\
	if (!(cond)) {							\
		fprintf(stderr, "%s:%d: check failed: %s\n",		\
			__FILE__, __LINE__, #cond);			\
		check_failures++;					\
	}								\
} while (0)

/*
 * The test cannot run here: say why, and give main the status that means
 * so (ctest's SKIP_RETURN_CODE, as tests/lib/testlib.sh's skip).
 */
static inline int check_skip(const char *why)
{
	printf("SKIP - %s\n", why);
	return 77;
}

/*
 * Print "N passed, M failed" and return the exit status: 1 when a check
 * failed or none ran (a test that checked nothing proves nothing).
 */
static inline int check_report(void)
{
	printf("%d passed, %d failed\n", check_count - check_failures,
	       check_failures);
	if (check_count == 0) {
		printf("FAIL: no check ran\n");
		return 1;
	}
	return check_failures ? 1 : 0;
}

#endif
