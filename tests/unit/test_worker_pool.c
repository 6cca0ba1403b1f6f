// SPDX-License-Identifier: MIT
/*
 * The worker pool's promises, on which the pipeline's speed and the lanes'
 * progress rest: a team's threads all run at once, the wait returns after
 * every one has finished, threads are kept for the next run, and a team's
 * function can run a team of its own without waiting for a free thread.
 */
#include <stdatomic.h>
#include <time.h>

#include "../lib/check.h"
#include "worker_pool.h"

#define N	4

static _Thread_local int runs_here;	/* runs this thread has made */

struct gather {
	atomic_int arrived;
	int want;
	atomic_int all_met;	/* every member saw all the others arrive */
	atomic_int reused;	/* members that had run a function before */
	int slot[N * N];
	atomic_int next_slot;
};

/* Until all @want have arrived, or a few seconds have passed: 1 if met. */
static int meet(struct gather *g)
{
	struct timespec ts = { 0, 1000 * 1000 };

	atomic_fetch_add(&g->arrived, 1);
	for (int i = 0; i < 5000; i++) {
		if (atomic_load(&g->arrived) >= g->want)
			return 1;
		nanosleep(&ts, NULL);
	}
	return 0;
}

static void member(void *arg)
{
	struct gather *g = arg;
	struct timespec ts = { 0, 20 * 1000 * 1000 };

	if (runs_here++ > 0)
		atomic_fetch_add(&g->reused, 1);
	if (meet(g))
		atomic_fetch_add(&g->all_met, 1);
	nanosleep(&ts, NULL);	/* a late write, for the wait to cover */
	g->slot[atomic_fetch_add(&g->next_slot, 1)] = 1;
}

static int run_team(int n)
{
	struct gather g = { .want = n };
	struct worker_team team;
	int took = worker_pool_run(&team, n, member, &g), sum = 0;

	worker_pool_wait(&team);
	CHECK(took == n);
	CHECK(atomic_load(&g.all_met) == n);
	for (int i = 0; i < n; i++)
		sum += g.slot[i];
	CHECK(sum == n);	/* every member had finished */
	return atomic_load(&g.reused);
}

/* Each member of an outer team runs a team of its own, all at once. */
static atomic_int short_teams;

static void outer_member(void *arg)
{
	struct gather *inner = arg;	/* every inner member of every team */
	struct worker_team team;

	if (worker_pool_run(&team, N, member, inner) != N)
		atomic_fetch_add(&short_teams, 1);	/* CHECK is one thread's */
	worker_pool_wait(&team);
}

int main(void)
{
	struct gather inner = { .want = N * N };
	struct worker_team team;
	int sum = 0;

	CHECK(run_team(N) == 0);	/* new threads */
	CHECK(run_team(N) == N);	/* the same, kept */
	CHECK(run_team(1) == 1);

	/* N outer threads hold on while N * N inner ones must all meet. */
	CHECK(worker_pool_run(&team, N, outer_member, &inner) == N);
	worker_pool_wait(&team);
	CHECK(atomic_load(&short_teams) == 0);
	CHECK(atomic_load(&inner.all_met) == N * N);
	for (int i = 0; i < N * N; i++)
		sum += inner.slot[i];
	CHECK(sum == N * N);

	/* A team of none: nothing runs, and the wait returns. */
	CHECK(worker_pool_run(&team, 0, member, NULL) == 0);
	worker_pool_wait(&team);
	return check_report();
}
