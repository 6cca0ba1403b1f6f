// SPDX-License-Identifier: MIT
/*
 * The enforcer's log: each refusal (or, in warn mode, each file that would
 * have been refused) comes from the programs through a ring buffer and is
 * printed as one line naming the path, the digest found and the digest
 * the installed packages signed for that path. Run as a service, the
 * lines reach the journal; with --kmsg the kernel log as well. If nobody
 * reads, the programs go on refusing: only lines are lost, and the
 * counters (rpm-verity-enforcer status) still count.
 */
#include "enforcer.h"
#include "enforcer_abi.h"
#include "enforcer_table.h"
#include "hex.h"
#include "verity_format.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

struct log_state {
	int kmsg;
	long left;	/* events still to print; < 0: no limit */
};

static const char *hook_name(unsigned int hook)
{
	switch (hook) {
	case ENFORCER_EXEC: return "exec";
	case ENFORCER_MMAP: return "mmap PROT_EXEC";
	case ENFORCER_MPROTECT: return "mprotect PROT_EXEC";
	default: return "check";
	}
}

/* "sha256:HEX", as fsverity-utils prints a digest, or "none". */
static void digest_text(const struct enforcer_digest *d, char *out, size_t n)
{
	const struct verity_hash_alg *alg = verity_hash_alg_by_id(d->alg);
	char hex[2 * ENFORCER_DIGEST_MAX + 1];

	if (!d->size || d->size > sizeof(d->bytes)) {
		snprintf(out, n, "none");
		return;
	}
	hex_encode(d->bytes, d->size, hex);
	snprintf(out, n, "%s:%s", alg ? alg->name : "alg?", hex);
}

static const char *reason_text(unsigned int reason)
{
	switch (reason) {
	case ENFORCER_UNBOUND: return "no installed package signed this path";
	case ENFORCER_NO_VERITY: return "the file has no fs-verity";
	case ENFORCER_WRONG_DIGEST: return "not the content signed for this path";
	case ENFORCER_NO_PATH: return "its path cannot be resolved (too long?)";
	case ENFORCER_WRITTEN: return "a written private mapping made executable";
	case ENFORCER_NO_MEMORY: return "no kernel memory to check it in";
	case ENFORCER_UNJUDGED: return "this kernel cannot name a mapping's file, so none is made executable";
	default: return "refused";
	}
}

static int on_event(void *ctx, void *data, size_t size)
{
	struct log_state *ls = ctx;
	const struct enforcer_event *e = data;
	char found[140], expected[140], line[1024];
	int n;

	if (size < sizeof(*e))
		return 0;
	digest_text(&e->found, found, sizeof(found));
	digest_text(&e->expected, expected, sizeof(expected));
	n = snprintf(line, sizeof(line),
		     "rpm-verity-enforcer: %s %s of %.*s by pid %u (%.16s): %s; digest %s, signed %s\n",
		     e->enforced ? "refused" : "would refuse (warn)",
		     hook_name(e->hook), (int)sizeof(e->path),
		     e->path[0] ? e->path : "(no path)", e->pid, e->comm,
		     reason_text(e->reason), found, expected);
	fputs(line, stdout);
	fflush(stdout);
	if (ls->kmsg >= 0 && n > 0)
		(void)!write(ls->kmsg, line, (size_t)n);
	if (ls->left > 0 && --ls->left == 0)
		return 1;	/* stops ring_buffer__poll */
	return 0;
}

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

int enforcer_log(bool kmsg, long max_events)
{
	struct log_state ls = { .kmsg = -1, .left = max_events > 0 ? max_events : -1 };
	struct ring_buffer *rb;
	int fd = bpf_obj_get(ENFORCER_PIN_DIR "/events");
	int rc = 0;

	if (fd < 0) {
		fprintf(stderr, "rpm-verity-enforcer: not loaded (%s/events: %s)\n",
			ENFORCER_PIN_DIR, strerror(errno));
		return 3;
	}
	if (kmsg)
		ls.kmsg = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	rb = ring_buffer__new(fd, on_event, &ls, NULL);
	if (!rb) {
		fprintf(stderr, "rpm-verity-enforcer: cannot read the log: %s\n",
			strerror(errno));
		return 2;
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	while (!stop) {
		rc = ring_buffer__poll(rb, 1000);
		if (rc == -EINTR) {
			rc = 0;
			continue;
		}
		if (rc < 0 || (ls.left == 0))
			break;
	}
	ring_buffer__free(rb);
	if (ls.kmsg >= 0)
		close(ls.kmsg);
	return rc < 0 ? 2 : 0;
}
