// SPDX-License-Identifier: MIT
/*
 * rpm-verity-enforcer: on kernels that never check fs-verity signatures
 * (Fedora's, RHEL's, openSUSE's: no CONFIG_FS_VERITY_BUILTIN_SIGNATURES),
 * and beside IPE or IMA where they do, a BPF LSM that lets a file run only
 * when its fs-verity digest is the one the installed packages signed for
 * its path. This file parses the command line; load.c, log.c and
 * bind_rpmdb.c do the work. rpm-verity-enforcer(8) is the manual.
 */
#include "enforcer.h"

#include <popt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rpm/rpmlib.h>

static const struct { const char *name; unsigned long long magic; } fs_types[] = {
	{ "9p", 0x01021997 },	/* V9FS_MAGIC: the test guests' host root */
	{ "tmpfs", 0x01021994 },
	{ "ramfs", 0x858458f6 },
	{ "btrfs", 0x9123683e },
	{ "ext4", 0xef53 },
	{ "xfs", 0x58465342 },
	{ "overlay", 0x794c7630 },
	{ "squashfs", 0x73717368 },
	{ "erofs", 0xe0f5e1e2 },
};

/* A filesystem type by name or as a number (statfs' f_type); 0: unknown. */
static unsigned long long fs_magic(const char *name)
{
	char *end;
	unsigned long long v;

	for (size_t i = 0; i < sizeof(fs_types) / sizeof(fs_types[0]); i++)
		if (!strcmp(name, fs_types[i].name))
			return fs_types[i].magic;
	v = strtoull(name, &end, 0);
	return *name && !*end ? v : 0;
}

static void usage(FILE *f)
{
	fputs("usage: rpm-verity-enforcer load [--warn] [--root DIR] [--dbpath DIR]\n"
	      "                                [--cert CERT]... [--exempt-fs TYPE]...\n"
	      "                                [--max-files N] [--dry-run] [--quiet]\n"
	      "       rpm-verity-enforcer status\n"
	      "       rpm-verity-enforcer log [--kmsg] [--count N]\n", f);
}

static int cmd_load(int argc, const char **argv)
{
	struct load_opts o = { 0 };
	char *root = NULL, *dbpath = NULL, *fs = NULL;
	const char **certs = NULL;
	int warn = 0, quiet = 0, dry_run = 0, max_files = 0, c, rc = 2;
	struct poptOption opts[] = {
		{ "warn", 0, POPT_ARG_NONE, &warn, 0,
		  "log what would be refused, refuse nothing", NULL },
		{ "root", 'r', POPT_ARG_STRING, &root, 0,
		  "bind the files of the system installed under DIR", "DIR" },
		{ "dbpath", 0, POPT_ARG_STRING, &dbpath, 0,
		  "rpmdb directory, under --root", "DIR" },
		{ "cert", 'c', POPT_ARG_ARGV, &certs, 0,
		  "trusted certificate (default: %_fsverity_certs)", "CERT" },
		{ "exempt-fs", 0, POPT_ARG_STRING, &fs, 'x',
		  "do not judge files on this filesystem type", "TYPE" },
		{ "quiet", 'q', POPT_ARG_NONE, &quiet, 0, "no summary", NULL },
		{ "max-files", 0, POPT_ARG_INT, &max_files, 0,
		  "files the table can hold, installs to come included "
		  "(default 262144)", "N" },
		{ "dry-run", 'n', POPT_ARG_NONE, &dry_run, 0,
		  "check every installed file and say what would be bound; "
		  "load nothing", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext("rpm-verity-enforcer load", argc, argv,
					 opts, 0);

	while ((c = poptGetNextOpt(ctx)) > 0) {
		unsigned long long m = fs_magic(fs);

		if (!m || o.nexempt == sizeof(o.exempt) / sizeof(o.exempt[0])) {
			fprintf(stderr, "rpm-verity-enforcer: --exempt-fs %s: %s\n",
				fs, m ? "too many" : "unknown filesystem type");
			goto out;
		}
		o.exempt[o.nexempt++] = m;
		free(fs);
		fs = NULL;
	}
	if (c < -1 || poptPeekArg(ctx)) {
		fprintf(stderr, "rpm-verity-enforcer load: %s\n", c < -1 ?
			poptStrerror(c) : "unexpected argument");
		usage(stderr);
		goto out;
	}
	o.warn = warn;
	o.quiet = quiet;
	o.dry_run = dry_run;
	if (max_files < 0) {
		fprintf(stderr, "rpm-verity-enforcer: --max-files %d: not a size\n",
			max_files);
		goto out;
	}
	o.max_files = (unsigned int)max_files;
	o.root = root;
	o.dbpath = dbpath;
	o.certs = certs;
	rc = enforcer_load(&o);
out:
	for (size_t i = 0; certs && certs[i]; i++)
		free((char *)certs[i]);
	free(certs);
	free(root);
	free(dbpath);
	free(fs);
	poptFreeContext(ctx);
	return rc;
}

static int cmd_log(int argc, const char **argv)
{
	int kmsg = 0, c;
	long count = 0;
	struct poptOption opts[] = {
		{ "kmsg", 0, POPT_ARG_NONE, &kmsg, 0,
		  "also write each line to the kernel log", NULL },
		{ "count", 'n', POPT_ARG_LONG, &count, 0,
		  "exit after N lines", "N" },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext("rpm-verity-enforcer log", argc, argv,
					 opts, 0);

	while ((c = poptGetNextOpt(ctx)) > 0)
		;
	poptFreeContext(ctx);
	if (c < -1) {
		usage(stderr);
		return 2;
	}
	return enforcer_log(kmsg, count);
}

int main(int argc, const char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "status"))
		return enforcer_status();
	if (!strcmp(argv[1], "log"))
		return cmd_log(argc - 1, argv + 1);
	if (!strcmp(argv[1], "load")) {
		if (rpmReadConfigFiles(NULL, NULL) != 0) {
			fprintf(stderr, "rpm-verity-enforcer: cannot read rpm's configuration\n");
			return 2;
		}
		return cmd_load(argc - 1, argv + 1);
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	fprintf(stderr, "rpm-verity-enforcer: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
