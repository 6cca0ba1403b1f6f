/* SPDX-License-Identifier: MIT */
/*
 * The process's threads, lent out: every command and pipeline that works
 * on several threads asks here, and none starts its own. Why it is shaped
 * so is in worker_pool.c.
 */
#ifndef RPMVERITY_WORKER_POOL_H
#define RPMVERITY_WORKER_POOL_H

#include <pthread.h>

/* One call of worker_pool_run: @fn running on some threads. The caller's. */
struct worker_team {
	void (*fn)(void *arg);
	void *arg;
	int running;		/* under the pool's lock */
	pthread_cond_t done;
};

/*
 * Run @fn(@arg) on @n threads at once, idle ones first, starting new ones
 * for the rest, and return at once with how many took it (0 to @n; fewer
 * only when the system refuses threads). @fn shares out the work itself.
 * It may call worker_pool_run in turn: the pool grows rather than waits.
 * Always follow with worker_pool_wait(@team), whatever this returned.
 */
int worker_pool_run(struct worker_team *team, int n, void (*fn)(void *arg),
		    void *arg);

/* Wait until every thread of @team has returned from its @fn. */
void worker_pool_wait(struct worker_team *team);

#endif
