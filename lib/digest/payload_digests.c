// SPDX-License-Identifier: MIT
/*
 * The digest pipeline. The payload is one compressed stream, so it is read
 * and decompressed on one thread; file contents are cut into chunks from a
 * fixed pool and queued per file, and worker threads (lent by
 * worker_pool.c, which keeps them for the next package) take whole files
 * in order, build their Merkle trees from the chunks (merkle_tree.c) and
 * pass the digest on. Memory is the chunk pool, whatever the file sizes.
 *
 * Small files, most of a package by count, are packed whole into one
 * chunk and queued together as a batch: a lock, a wake-up and a chunk per
 * 128 KiB rather than per file, which is what the per-file cost was.
 * Chunks outlive the call (a process-wide stash), so a run over many
 * packages does not map and fault in the pool again for each one.
 *
 * Deadlock freedom: the reader feeds one file (or one batch) at a time, so
 * every queued job but the newest is complete and the worker that takes it
 * finishes it and returns its chunks, which lets the reader go on with the
 * newest. A batch being filled holds one chunk and is queued before the
 * reader waits for another.
 */
#include "payload_digests.h"
#include "file_msg.h"
#include "merkle_tree.h"
#include "payload_reader.h"
#include "worker_pool.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <rpm/rpmstring.h>

#define CHUNK_SIZE	(128 * 1024)
#define MAX_CHUNKS	64
#define BATCH_FILES	128	/* files per batch job at most */

struct chunk {
	struct chunk *next;
	size_t len;
	uint8_t data[CHUNK_SIZE];
};

/*
 * One file's content on its way from the reader to a worker. Two hold it:
 * the reader, until it has queued the file's last chunk or given up, and
 * the queue, then the worker that takes it. Whichever lets go last frees it
 * (job_put_locked), so a worker that stops early (its file failed, or
 * another did) cannot free a job the reader is still filling.
 */
struct file_job {
	struct file_job *next;
	int index;
	int refs;			/* under the pipeline's lock */
	uint64_t size;
	struct chunk *head, *tail;	/* queued, not yet consumed */
	/* owned by the worker that hashes it: */
	struct chunk *cur;
	struct pipeline *p;
	/* A batch (nfiles > 0): whole files side by side in the one chunk. */
	int nfiles;
	struct {
		int index;
		uint32_t off, len;
	} batch[BATCH_FILES];
};

struct pipeline {
	pthread_mutex_t lock;
	pthread_cond_t chunk_freed;	/* reader waits: pool empty */
	pthread_cond_t job_queued;	/* idle workers wait: no job */
	pthread_cond_t data_ready;	/* a worker waits: its file's next chunk */
	struct chunk *free_chunks;
	struct file_job *jobs_head, *jobs_tail;
	struct file_job *batch;		/* the reader's, being filled */
	int reading_done;
	atomic_int failed;		/* set under lock, read anywhere */
	char *err;			/* first failure */
	struct payload_expect expect;	/* the payload's digest... */
	atomic_int checking;		/* ...checked by the first worker */

	const struct package *pkg;
	rpmfiles files;
	const struct verity_hash_alg *alg;
	file_digest_fn fn;
	void *ctx;
};

static void fail_locked(struct pipeline *p, char *msg)
{
	if (!p->failed) {
		p->failed = 1;
		p->err = msg;
	} else {
		free(msg);
	}
	pthread_cond_broadcast(&p->job_queued);
	pthread_cond_broadcast(&p->data_ready);
	pthread_cond_broadcast(&p->chunk_freed);
}

static void free_chunk_locked(struct pipeline *p, struct chunk *c)
{
	c->next = p->free_chunks;
	p->free_chunks = c;
	pthread_cond_signal(&p->chunk_freed);
}

/*
 * Hash a streamed file's chunks as the reader queues them, returning each
 * to the pool once hashed. 0, -EIO when the run failed meanwhile, or
 * -ENOMEM when OpenSSL did.
 */
static int hash_stream(struct pipeline *p, struct merkle_tree *t,
		       struct file_job *job,
		       uint8_t digest[VERITY_MAX_DIGEST_SIZE])
{
	uint64_t done = 0;

	merkle_tree_start(t);
	while (done < job->size) {
		pthread_mutex_lock(&p->lock);
		if (job->cur)
			free_chunk_locked(p, job->cur);
		job->cur = NULL;
		while (!job->head && !p->failed)
			pthread_cond_wait(&p->data_ready, &p->lock);
		if (p->failed) {
			pthread_mutex_unlock(&p->lock);
			return -EIO;
		}
		job->cur = job->head;
		job->head = job->cur->next;
		if (!job->head)
			job->tail = NULL;
		pthread_mutex_unlock(&p->lock);
		if (merkle_tree_update(t, job->cur->data, job->cur->len))
			return -ENOMEM;
		done += job->cur->len;
	}
	return merkle_tree_final(t, digest) ? -ENOMEM : 0;
}

int empty_file_digest(const struct verity_hash_alg *alg,
		      uint8_t digest[VERITY_MAX_DIGEST_SIZE])
{
	struct merkle_tree *t = rmalloc(sizeof(*t));
	int rc = merkle_tree_init(t, alg) == 0 ? 0 : -1;

	if (rc == 0) {
		merkle_tree_start(t);
		rc = merkle_tree_final(t, digest);
		merkle_tree_free(t);
	}
	free(t);
	return rc;
}

/* Let go of @job; the last holder returns its chunks and frees it. */
static void job_put_locked(struct pipeline *p, struct file_job *job)
{
	if (--job->refs > 0)
		return;
	if (job->cur)
		free_chunk_locked(p, job->cur);
	while (job->head) {
		struct chunk *c = job->head;

		job->head = c->next;
		free_chunk_locked(p, c);
	}
	free(job);
}

/* One file's digest handed on; 0, or an error code with *@err set or not. */
static int hand_on(struct pipeline *p, int index, int rc,
		   const uint8_t *digest, char **err)
{
	if (rc == 0 && p->failed)	/* no more signing after a failure */
		rc = -ECANCELED;
	if (rc == 0)
		rc = p->fn(p->ctx, index, digest, err) ? -1 : 0;
	else if (rc != -EIO && rc != -ECANCELED)
		*err = file_msg(p->pkg->path, p->files, index,
				"cannot compute fs-verity digest: %s",
				strerror(-rc));
	return rc;
}

/*
 * A batch's files are all in memory: their digests at once (their blocks
 * hashed side by side, merkle_tree_digest_many), then handed on, with no
 * lock until the last is done.
 */
static int hash_batch(struct pipeline *p, struct merkle_tree *t,
		      struct file_job *job, char **err)
{
	uint8_t digest[BATCH_FILES][VERITY_MAX_DIGEST_SIZE];
	const uint8_t *data[BATCH_FILES];
	size_t size[BATCH_FILES];
	int rc;

	for (int i = 0; i < job->nfiles; i++) {
		data[i] = job->head->data + job->batch[i].off;
		size[i] = job->batch[i].len;
	}
	rc = p->failed ? -ECANCELED :
	     merkle_tree_digest_many(t, (size_t)job->nfiles, data, size,
				     digest) ? -ENOMEM : 0;
	if (rc)		/* names the batch's first file */
		return hand_on(p, job->batch[0].index, rc, NULL, err);
	for (int i = 0; i < job->nfiles && rc == 0; i++)
		rc = hand_on(p, job->batch[i].index, 0, digest[i], err);
	return rc;
}

/*
 * The compressed payload against the main header's digest of it, on the
 * first worker while the reader decompresses, so it costs the reader
 * nothing. A corrupted payload also fails to decompress or gives other
 * digests, so this verdict explains any other failure: its message
 * replaces one already set.
 */
static void check_payload(struct pipeline *p)
{
	char *err = NULL;

	if (atomic_exchange(&p->checking, 1) ||
	    package_payload_verify(p->pkg, &p->expect, &err) == 0)
		return;
	pthread_mutex_lock(&p->lock);
	if (p->failed) {
		free(p->err);
		p->err = err;
	} else {
		fail_locked(p, err);
	}
	pthread_mutex_unlock(&p->lock);
}

static void worker_main(void *arg)
{
	struct pipeline *p = arg;
	struct merkle_tree *t = rmalloc(sizeof(*t));

	check_payload(p);

	if (merkle_tree_init(t, p->alg) != 0) {
		free(t);
		pthread_mutex_lock(&p->lock);
		fail_locked(p, rstrscat(NULL, p->pkg->path,
					": cannot set up hashing", NULL));
		pthread_mutex_unlock(&p->lock);
		return;
	}
	for (;;) {
		uint8_t digest[VERITY_MAX_DIGEST_SIZE];
		struct file_job *job;
		char *err = NULL;
		int rc;

		pthread_mutex_lock(&p->lock);
		while (!p->jobs_head && !p->reading_done && !p->failed)
			pthread_cond_wait(&p->job_queued, &p->lock);
		job = p->jobs_head;
		if (job) {
			p->jobs_head = job->next;
			if (!p->jobs_head)
				p->jobs_tail = NULL;
		}
		pthread_mutex_unlock(&p->lock);
		if (!job)
			break;

		if (job->nfiles) {
			rc = hash_batch(p, t, job, &err);
		} else {
			rc = p->failed ? -ECANCELED :
			     hash_stream(p, t, job, digest);
			rc = hand_on(p, job->index, rc, digest, &err);
		}
		pthread_mutex_lock(&p->lock);
		if (rc)
			fail_locked(p, err);
		job_put_locked(p, job);
		pthread_mutex_unlock(&p->lock);
	}
	merkle_tree_free(t);
	free(t);
}

static void queue_job_locked(struct pipeline *p, struct file_job *job)
{
	if (p->jobs_tail)
		p->jobs_tail->next = job;
	else
		p->jobs_head = job;
	p->jobs_tail = job;
	pthread_cond_signal(&p->job_queued);
}

/* A free chunk, waiting for one; NULL after a failure. */
static struct chunk *take_chunk_locked(struct pipeline *p)
{
	struct chunk *c;

	while (!p->free_chunks && !p->failed)
		pthread_cond_wait(&p->chunk_freed, &p->lock);
	if (p->failed)
		return NULL;
	c = p->free_chunks;
	p->free_chunks = c->next;
	c->next = NULL;
	c->len = 0;
	return c;
}

/* Queue the batch being filled, if any (the reader's hold passes on). */
static void flush_batch(struct pipeline *p)
{
	struct file_job *job = p->batch;

	if (!job)
		return;
	p->batch = NULL;
	pthread_mutex_lock(&p->lock);
	if (p->failed)
		job_put_locked(p, job);
	else
		queue_job_locked(p, job);
	pthread_mutex_unlock(&p->lock);
}

/* Add a whole file of @size bytes (at most a chunk) to the batch. */
static int batch_file(struct pipeline *p, struct payload_reader *r, int index,
		      size_t size)
{
	struct file_job *job = p->batch;
	struct chunk *c;

	if (job && (job->nfiles == BATCH_FILES ||
		    CHUNK_SIZE - job->head->len < size)) {
		flush_batch(p);
		job = NULL;
	}
	if (!job) {
		job = calloc(1, sizeof(*job));
		if (!job)
			return -ENOMEM;
		job->refs = 1;	/* the queue's, once queued */
		job->p = p;
		pthread_mutex_lock(&p->lock);
		job->head = take_chunk_locked(p);
		pthread_mutex_unlock(&p->lock);
		if (!job->head) {	/* failed meanwhile */
			free(job);
			return 0;
		}
		job->tail = job->head;
		p->batch = job;
	}
	c = job->head;
	if (payload_reader_read(r, c->data + c->len, size) < size) {
		pthread_mutex_lock(&p->lock);
		fail_locked(p, file_msg(p->pkg->path, p->files, index,
					"payload ends inside the file (truncated or corrupted package)"));
		pthread_mutex_unlock(&p->lock);
		return 0;
	}
	job->batch[job->nfiles].index = index;
	job->batch[job->nfiles].off = (uint32_t)c->len;
	job->batch[job->nfiles].len = (uint32_t)size;
	job->nfiles++;
	c->len += size;
	return 0;
}

/* Queue one file's content, chunk by chunk, for the workers. */
static int feed_file(struct pipeline *p, struct payload_reader *r, int index,
		     uint64_t size)
{
	struct file_job *job;
	uint64_t left = size;

	if (size <= CHUNK_SIZE)
		return batch_file(p, r, index, (size_t)size);
	flush_batch(p);
	job = calloc(1, sizeof(*job));
	if (!job)
		return -ENOMEM;
	job->index = index;
	job->refs = 2;		/* the reader's and the queue's */
	job->size = size;
	job->p = p;

	pthread_mutex_lock(&p->lock);
	queue_job_locked(p, job);
	while (left) {
		size_t want = left < CHUNK_SIZE ? (size_t)left : CHUNK_SIZE;
		struct chunk *c = take_chunk_locked(p);

		if (!c)
			break;
		pthread_mutex_unlock(&p->lock);

		/* Decompress outside the lock: this is the reader's real work. */
		c->len = payload_reader_read(r, c->data, want);

		pthread_mutex_lock(&p->lock);
		if (p->failed) {	/* no worker will read it */
			free_chunk_locked(p, c);
			break;
		}
		if (c->len < want) {
			free_chunk_locked(p, c);
			fail_locked(p, file_msg(p->pkg->path, p->files, index,
						"payload ends inside the file (truncated or corrupted package)"));
			break;
		}
		if (job->tail)
			job->tail->next = c;
		else
			job->head = c;
		job->tail = c;
		left -= c->len;
		pthread_cond_broadcast(&p->data_ready);
	}
	job_put_locked(p, job);	/* the reader is done with it */
	pthread_mutex_unlock(&p->lock);
	return 0;
}

static void read_payload(struct pipeline *p, FD_t payload)
{
	struct payload_reader *r;
	struct payload_entry e;
	char *err = NULL;

	r = payload_reader_new(p->pkg->path, p->pkg->h, p->files, payload, &err);
	while (r && !p->failed && payload_reader_next(r, &e, &err) > 0) {
		if (e.size && feed_file(p, r, e.index, e.size) != 0)
			err = rstrscat(NULL, p->pkg->path, ": out of memory", NULL);
		if (err)
			break;
	}
	if (err) {
		pthread_mutex_lock(&p->lock);
		fail_locked(p, err);
		pthread_mutex_unlock(&p->lock);
	}
	flush_batch(p);
	payload_reader_free(r);
}

/* Chunks kept between calls, so each package does not fault in new ones. */
static pthread_mutex_t stash_lock = PTHREAD_MUTEX_INITIALIZER;
static struct chunk *stash;
static int nstash;

/* Put @n chunks on @p's free list; -1 when memory runs out. */
static int pool_get(struct pipeline *p, int n)
{
	pthread_mutex_lock(&stash_lock);
	for (; n > 0 && stash; n--) {
		struct chunk *c = stash;

		stash = c->next;
		nstash--;
		c->next = p->free_chunks;
		p->free_chunks = c;
	}
	pthread_mutex_unlock(&stash_lock);
	for (; n > 0; n--) {
		struct chunk *c = malloc(sizeof(*c));

		if (!c)
			return -1;
		c->next = p->free_chunks;
		p->free_chunks = c;
	}
	return 0;
}

static void pool_put(struct pipeline *p)
{
	pthread_mutex_lock(&stash_lock);
	while (p->free_chunks) {
		struct chunk *c = p->free_chunks;

		p->free_chunks = c->next;
		if (nstash < MAX_CHUNKS) {
			c->next = stash;
			stash = c;
			nstash++;
		} else {
			free(c);
		}
	}
	pthread_mutex_unlock(&stash_lock);
}

int payload_digests(const struct package *pkg, rpmfiles files,
		    const struct verity_hash_alg *alg, int workers,
		    file_digest_fn fn, void *ctx, char **err)
{
	struct pipeline p = {
		.pkg = pkg, .files = files, .alg = alg, .fn = fn, .ctx = ctx,
	};
	int nchunks = 4 * workers + 8;
	struct worker_team team;
	FD_t payload;

	if (nchunks > MAX_CHUNKS)
		nchunks = MAX_CHUNKS;
	if (package_payload_expect(pkg, &p.expect, err) != 0)
		return -1;
	payload = package_open_payload(pkg, err);
	if (!payload) {
		free(p.expect.hex);
		return -1;
	}
	if (pool_get(&p, nchunks) != 0) {
		pool_put(&p);
		free(p.expect.hex);
		Fclose(payload);
		rasprintf(err, "%s: out of memory", pkg->path);
		return -1;
	}
	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.chunk_freed, NULL);
	pthread_cond_init(&p.job_queued, NULL);
	pthread_cond_init(&p.data_ready, NULL);

	if (worker_pool_run(&team, workers, worker_main, &p) == 0) {
		p.failed = 1;
		p.err = rstrscat(NULL, pkg->path, ": cannot start threads", NULL);
	} else {
		read_payload(&p, payload);
	}

	pthread_mutex_lock(&p.lock);
	p.reading_done = 1;
	pthread_cond_broadcast(&p.job_queued);
	pthread_mutex_unlock(&p.lock);
	worker_pool_wait(&team);

	/* Jobs the workers never took (after a failure): the queue's hold. */
	while (p.jobs_head) {
		struct file_job *job = p.jobs_head;

		p.jobs_head = job->next;
		job_put_locked(&p, job);
	}
	pthread_cond_destroy(&p.data_ready);
	pthread_cond_destroy(&p.job_queued);
	pthread_cond_destroy(&p.chunk_freed);
	pthread_mutex_destroy(&p.lock);
	pool_put(&p);
	Fclose(payload);
	free(p.expect.hex);
	if (p.failed) {
		*err = p.err ? p.err : rstrscat(NULL, pkg->path,
						": digest computation failed", NULL);
		return -1;
	}
	return 0;
}
