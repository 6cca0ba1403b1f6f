// SPDX-License-Identifier: MIT
/*
 * rpm-verity: every command of rpm-verity, which puts fs-verity file
 * signatures into RPM packages, checks them, takes them out again and
 * audits installed systems, in this one process. This file only
 * dispatches, to one cmd_*.c per command.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
