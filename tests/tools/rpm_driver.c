// SPDX-License-Identifier: MIT
/*
 * Test helper for sanitized builds: a minimal `rpm` for -i/-U/-e, built
 * with the project's flags (so with ASan/UBSan when RPMVERITY_SANITIZE=ON),
 * through the same librpm CLI calls the real rpm makes. Debian's rpm is not
 * sanitized, and preloading libasan into it (or into any program using
 * librpm's CLI) hangs in textdomain() during rpmcliInit, so a sanitized
 * verity.so can only be loaded by a program that links ASan itself.
 * tests/plugin/lib.sh and tests/vm/lib.sh use this instead of /usr/bin/rpm
 * when the build is sanitized.
 */
#include <popt.h>
#include <stdio.h>
#include <string.h>

#include <rpm/rpmcli.h>
#include <rpm/rpmts.h>

static struct poptOption options[] = {
	{ NULL, '\0', POPT_ARG_INCLUDE_TABLE, rpmInstallPoptTable, 0,
	  "Install/Upgrade/Erase options:", NULL },
	{ NULL, '\0', POPT_ARG_INCLUDE_TABLE, rpmcliAllPoptTable, 0,
	  "Common options:", NULL },
	POPT_AUTOHELP
	POPT_TABLEEND
};

int main(int argc, char **argv)
{
	struct rpmInstallArguments_s *ia = &rpmIArgs;
	poptContext con;
	rpmts ts;
	int n = 0, ec;

	/* Debian's rpm has --force-debian; there is nothing to force here. */
	for (int i = 0; i < argc; i++)
		if (strcmp(argv[i], "--force-debian") != 0)
			argv[n++] = argv[i];
	argv[n] = NULL;

	con = rpmcliInit(n, argv, options);
	ts = rpmtsCreate();
	rpmtsSetRootDir(ts, rpmcliRootDir);
	if (ia->installInterfaceFlags & INSTALL_ERASE) {
		if (ia->noDeps)
			ia->installInterfaceFlags |= UNINSTALL_NODEPS;
		ec = rpmErase(ts, ia, (ARGV_const_t)poptGetArgs(con));
	} else if (ia->installInterfaceFlags &
		   (INSTALL_INSTALL | INSTALL_UPGRADE | INSTALL_FRESHEN |
		    INSTALL_REINSTALL)) {
		if (ia->noDeps)
			ia->installInterfaceFlags |= INSTALL_NODEPS;
		ec = rpmInstall(ts, ia, (ARGV_t)poptGetArgs(con));
	} else {
		fprintf(stderr, "rpm-driver: give -i, -U or -e\n");
		ec = 2;
	}
	rpmtsFree(ts);
	rpmcliFini(con);
	return ec > 255 ? 255 : ec;
}
