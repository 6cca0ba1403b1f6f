// SPDX-License-Identifier: MIT
/* See progress.h. */
#include "progress.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void progress_init(struct progress *p, const char *verb,
		   unsigned long total_packages)
{
	p->on = isatty(STDERR_FILENO);
	p->verb = verb;
	p->total = total_packages;
	p->start = p->last = now();
}

void progress_show(struct progress *p, unsigned long packages,
		   unsigned long files)
{
	double t;

	if (!p->on)
		return;
	t = now();
	if (t - p->last < 0.1 && packages < p->total)
		return;
	p->last = t;
	fprintf(stderr, "\r\033[K%s %lu/%lu packages, %lu files, %.0f files/s",
		p->verb, packages, p->total, files,
		t > p->start ? (double)files / (t - p->start) : 0.0);
	fflush(stderr);
}

void progress_end(struct progress *p)
{
	if (p->on)
		fprintf(stderr, "\r\033[K");
}
