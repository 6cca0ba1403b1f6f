// SPDX-License-Identifier: MIT
/*
 * The least librpm lets audit --unowned spend before its walk, for
 * bench/unowned-bench: a process that reads rpm's configuration, opens the
 * rpmdb under ROOT and, unless told "open", reads every installed header
 * (each one imported, nothing asked of it). The audit needs at least
 * this to know which paths packages own; the floor of the walk
 * (unowned-floor.c) does not pay it, so this is how close to that floor
 * any audit built on librpm can come.
 *
 * usage: rpmdb-read open|headers|checked ROOT DBPATH
 *   open     configuration and the rpmdb opened, no header read
 *   headers  every header read, without rpm's digest checks (as --unowned)
 *   checked  every header read with them (rpm's default)
 * prints: "rpmdb-read: N headers"
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <rpm/rpmdb.h>
#include <rpm/rpmlib.h>
#include <rpm/rpmmacro.h>
#include <rpm/rpmts.h>

int main(int argc, char **argv)
{
	rpmdbMatchIterator mi;
	unsigned long n = 0;
	rpmts ts;

	if (argc != 4 || (strcmp(argv[1], "open") &&
			  strcmp(argv[1], "headers") &&
			  strcmp(argv[1], "checked"))) {
		fprintf(stderr, "usage: rpmdb-read open|headers|checked ROOT DBPATH\n");
		return 2;
	}
	if (rpmReadConfigFiles(NULL, NULL) != 0)
		return 2;
	rpmPushMacro(NULL, "_dbpath", NULL, argv[3], RMIL_CMDLINE);
	ts = rpmtsCreate();
	if (rpmtsSetRootDir(ts, argv[2]) != 0 ||
	    rpmtsOpenDB(ts, O_RDONLY) != 0) {
		fprintf(stderr, "rpmdb-read: cannot open the rpmdb under %s\n",
			argv[2]);
		return 2;
	}
	if (strcmp(argv[1], "open")) {
		if (!strcmp(argv[1], "headers"))
			rpmtsSetVSFlags(ts, rpmtsVSFlags(ts) | RPMVSF_NOHDRCHK);
		mi = rpmtsInitIterator(ts, RPMDBI_PACKAGES, NULL, 0);
		while (rpmdbNextIterator(mi))
			n++;
		rpmdbFreeIterator(mi);
	}
	rpmtsFree(ts);
	printf("rpmdb-read: %lu headers\n", n);
	return 0;
}
