/* SPDX-License-Identifier: MIT */
/* The rpm-verity subcommands and what they share. */
#ifndef RPMVERITY_CLI_H
#define RPMVERITY_CLI_H

#include <popt.h>
#include <rpm/rpmfiles.h>

int cmd_sign(int argc, const char **argv);
int cmd_verify(int argc, const char **argv);
int cmd_strip(int argc, const char **argv);

/* Print "rpm-verity: MSG" on stderr and free @msg. */
void report(char *msg);

/*
 * Parse @ctx's options; return the package arguments, or NULL after
 * printing the problem and the usage (exit status 2). A @jobs of 0 becomes
 * one thread per CPU; outside 0..1024 it is a usage error.
 */
const char **parse_command_line(poptContext ctx, const char *command,
				int *jobs);

/* Worker threads for -j 0: one per online CPU. */
int default_jobs(void);

/*
 * Files that carry content the kernel can protect: regular files that are
 * in the payload (so not %ghost). Everything else gets an empty entry.
 */
int file_is_signable(rpmfiles files, int index);

/*
 * The header-order index of a file of @index's hardlink set for which
 * @have[] is set, or -1 (hardlinked content is in the payload once).
 */
int hardlink_source(rpmfiles files, int index, const unsigned char *have);

#endif
