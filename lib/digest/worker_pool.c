// SPDX-License-Identifier: MIT
/*
 * The one place threads are started. Its users: the digest pipeline's
 * workers (payload_digests.c, under sign, verify, inject and digests),
 * digests' lanes, one package each (cmd_digests.c), and sign-digests'
 * signers (cmd_sign_digests.c). Why it is shaped so:
 *
 * - It runs one function on N threads and lets the caller wait for them
 *   (a team), rather than queueing jobs. Each user already shares out its
 *   work in the way its data wants: the pipeline hands files over with its
 *   chunks' flow control, the lanes take packages within a window of the
 *   writer, the signers take digests by an atomic counter. A job queue
 *   here would add a lock and a wake-up per item to paths tuned to avoid
 *   just that (the pipeline batches small files for this reason).
 * - The run returns at once, so the caller does its part meanwhile: the
 *   pipeline's caller decompresses, the lanes' caller writes blocks in
 *   order, sign-digests' caller signs too and shows progress.
 * - Threads are kept when their function returns and lent to the next
 *   run: a run over 200 small packages spent a tenth of its time creating
 *   and tearing down threads, when each package started its own workers.
 * - The pool belongs to the process, not to a command: the pipeline runs
 *   once per package under five commands and the tests, so a pool passed
 *   in would be threaded through all of them and bring nothing; the
 *   pipeline's chunks are kept for the process in the same way.
 * - It grows instead of making a run wait: a lane holds a thread while
 *   its package's pipeline asks for workers, so a pool of fixed size
 *   could have every thread waiting for one more. A run takes idle
 *   threads first and starts the rest; the process has as many threads
 *   as were ever busy at once, which is what each user had before on its
 *   own. Past IDLE_MAX idle ones, a returning thread ends.
 */
#include "worker_pool.h"

#include <stdlib.h>

#define IDLE_MAX	256

struct pool_thread {
	struct pool_thread *next;	/* on the idle list */
	struct worker_team *team;	/* lent to; NULL while idle */
	pthread_cond_t go;
};

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pool_thread *idle;
static int nidle;

static void *pool_thread_main(void *arg)
{
	struct pool_thread *t = arg;

	pthread_mutex_lock(&pool_lock);
	for (;;) {
		struct worker_team *team;

		while (!(team = t->team))
			pthread_cond_wait(&t->go, &pool_lock);
		pthread_mutex_unlock(&pool_lock);
		team->fn(team->arg);
		pthread_mutex_lock(&pool_lock);
		t->team = NULL;
		/* The team's owner may return once this is 0: last touch. */
		if (--team->running == 0)
			pthread_cond_signal(&team->done);
		if (nidle >= IDLE_MAX)
			break;
		t->next = idle;
		idle = t;
		nidle++;
	}
	pthread_mutex_unlock(&pool_lock);
	pthread_cond_destroy(&t->go);
	free(t);
	return NULL;
}

/* A new thread lent to @team at once; -1 when none can be started. */
static int start_thread(struct worker_team *team)
{
	struct pool_thread *t = malloc(sizeof(*t));
	pthread_attr_t attr;
	pthread_t id;
	int rc;

	if (!t)
		return -1;
	t->next = NULL;
	t->team = team;
	pthread_cond_init(&t->go, NULL);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_mutex_lock(&pool_lock);
	team->running++;	/* before the thread can end its part */
	pthread_mutex_unlock(&pool_lock);
	rc = pthread_create(&id, &attr, pool_thread_main, t);
	pthread_attr_destroy(&attr);
	if (rc == 0)
		return 0;
	pthread_mutex_lock(&pool_lock);
	team->running--;
	pthread_mutex_unlock(&pool_lock);
	pthread_cond_destroy(&t->go);
	free(t);
	return -1;
}

int worker_pool_run(struct worker_team *team, int n, void (*fn)(void *arg),
		    void *arg)
{
	int given = 0;

	team->fn = fn;
	team->arg = arg;
	team->running = 0;
	pthread_cond_init(&team->done, NULL);

	/* Most recently idle first: its stack is likely still cached. */
	pthread_mutex_lock(&pool_lock);
	for (; given < n && idle; given++) {
		struct pool_thread *t = idle;

		idle = t->next;
		nidle--;
		t->team = team;
		team->running++;
		pthread_cond_signal(&t->go);
	}
	pthread_mutex_unlock(&pool_lock);
	for (; given < n; given++)
		if (start_thread(team) != 0)
			break;
	return given;
}

void worker_pool_wait(struct worker_team *team)
{
	pthread_mutex_lock(&pool_lock);
	while (team->running > 0)
		pthread_cond_wait(&team->done, &pool_lock);
	pthread_mutex_unlock(&pool_lock);
	pthread_cond_destroy(&team->done);
}
