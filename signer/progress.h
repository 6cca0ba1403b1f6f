/* SPDX-License-Identifier: MIT */
/*
 * One progress line on stderr for runs over many packages (packages and
 * files done, rate), redrawn in place, and only when stderr is a terminal:
 * logs and pipes get nothing.
 */
#ifndef RPMVERITY_PROGRESS_H
#define RPMVERITY_PROGRESS_H

struct progress {
	int on;
	const char *verb;	/* "digested", "signed", "checked" */
	unsigned long total;	/* packages */
	double start, last;
};

void progress_init(struct progress *p, const char *verb,
		   unsigned long total_packages);
/* Redraws at most ten times a second. */
void progress_show(struct progress *p, unsigned long packages,
		   unsigned long files);
/* Clears the line. */
void progress_end(struct progress *p);

#endif
