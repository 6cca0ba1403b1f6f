/* SPDX-License-Identifier: MIT */
/* The few lines of test harness our C unit tests need. */
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

/* Print "N passed, M failed" and return the exit status. */
static inline int check_report(void)
{
	printf("%d passed, %d failed\n", check_count - check_failures,
	       check_failures);
	return check_failures ? 1 : 0;
}

#endif
