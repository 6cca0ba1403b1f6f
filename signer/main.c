// SPDX-License-Identifier: MIT
/*
 * rpm-verity: puts fs-verity file signatures into RPM packages, checks
 * them, and takes them out again. This file only dispatches.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <rpm/rpmfi.h>
#include <rpm/rpmlib.h>

#include "cli.h"

static const struct {
	const char *name;
	int (*fn)(int argc, const char **argv);
	const char *summary;
} commands[] = {
	{ "sign", cmd_sign, "add fs-verity signatures for every file" },
	{ "verify", cmd_verify, "check a package's fs-verity signatures" },
	{ "strip", cmd_strip, "remove fs-verity signatures" },
	{ "digests", cmd_digests, "write packages' fs-verity digests to sign elsewhere" },
	{ "sign-digests", cmd_sign_digests, "sign a manifest of digests, no package needed" },
	{ "inject", cmd_inject, "check signatures from sign-digests and store them" },
	{ "audit", cmd_audit, "check installed files against their packages' signatures" },
};

void report(char *msg)
{
	fprintf(stderr, "rpm-verity: %s\n", msg);
	free(msg);
}

int default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

int parse_options(poptContext ctx, const char *command, int *jobs)
{
	int c;

	while ((c = poptGetNextOpt(ctx)) > 0)
		;
	if (c < -1) {
		fprintf(stderr, "rpm-verity %s: %s: %s\n", command,
			poptBadOption(ctx, POPT_BADOPTION_NOALIAS), poptStrerror(c));
		return -1;
	}
	if (jobs && (*jobs < 0 || *jobs > 1024)) {
		fprintf(stderr, "rpm-verity %s: --jobs must be 0 to 1024\n",
			command);
		return -1;
	}
	if (jobs && *jobs == 0)
		*jobs = default_jobs();
	return 0;
}

const char **parse_command_line(poptContext ctx, const char *command,
				int *jobs)
{
	const char **args;

	if (parse_options(ctx, command, jobs) != 0)
		return NULL;
	args = poptGetArgs(ctx);
	if (!args)
		poptPrintUsage(ctx, stderr, 0);
	return args;
}

int file_is_signable(rpmfiles files, int index)
{
	return S_ISREG(rpmfilesFMode(files, index)) &&
	       !(rpmfilesFFlags(files, index) & RPMFILE_GHOST);
}

int hardlink_source(rpmfiles files, int index, const unsigned char *have)
{
	const int *links = NULL;
	int n = (int)rpmfilesFLinks(files, index, &links);

	if (!links)		/* not hardlinked */
		return -1;
	for (int i = 0; i < n; i++)
		if (have[links[i]])
			return links[i];
	return -1;
}

static void usage(FILE *out)
{
	fprintf(out, "Usage: rpm-verity COMMAND [OPTIONS] PACKAGE...\n\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-13s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\n'rpm-verity COMMAND --help' describes a command's options.\n");
}

int main(int argc, const char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("rpm-verity %s\n", RPMVERITY_VERSION);
		return 0;
	}
	/* rpm's macros give sign its defaults, as they do rpmsign's. */
	if (rpmReadConfigFiles(NULL, NULL) != 0) {
		fprintf(stderr, "rpm-verity: cannot read rpm configuration\n");
		return 1;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "rpm-verity: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
