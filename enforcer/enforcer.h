/* SPDX-License-Identifier: MIT */
/* rpm-verity-enforcer's commands (main.c dispatches to them). */
#ifndef RPMVERITY_ENFORCER_H
#define RPMVERITY_ENFORCER_H

#include <stdbool.h>
#include <stddef.h>

struct load_opts {
	bool warn;			/* log, do not refuse */
	const char *root;		/* the system whose rpmdb binds */
	const char *dbpath;
	const char *const *certs;	/* NULL: %_fsverity_certs */
	unsigned long long exempt[8];	/* filesystems not judged (s_magic) */
	unsigned int nexempt;
	bool quiet;			/* no summary line */
	bool dry_run;			/* check and count; load nothing */
	unsigned int max_files;		/* the table's size; 0: the default */
};

/* load.c: the programs, the table from the rpmdb, attached and pinned. */
int enforcer_load(const struct load_opts *o);
/* load.c: what is loaded, in how many bindings, checks and refusals. */
int enforcer_status(void);
/* log.c: print each refusal (or warning) as it comes; to /dev/kmsg too. */
int enforcer_log(bool kmsg, long max_events);
/* bind_rpmdb.c: bind every verified file of the installed packages. */
int enforcer_bind_rpmdb(int map_fd, const struct load_opts *o,
			unsigned long *bound, unsigned long *refused);

#endif
