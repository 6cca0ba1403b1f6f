// SPDX-License-Identifier: MIT
/*
 * rpm-verity: the program users run. It runs the commands program
 * (commands_main.c, installed in libexec), which links librpm, OpenSSL,
 * libp11 and popt, with the same arguments. Only one case it answers
 * itself, linking nothing but libc and SQLite: an `audit --unowned` whose
 * options name everything it needs and which finds nothing
 * (audit/unowned_fast.c). Loading those libraries and reading rpm's
 * configuration cost more than a scan of a whole clean system walks, and
 * a scan is what a monitoring system runs again and again. Every other
 * command pays one more exec, which none of them notices.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scan.h"

/*
 * The commands program: where it lies relative to this one (the same in
 * the build tree and once installed), else where it was installed.
 */
static void run_commands(char *const *argv)
{
	char self[PATH_MAX], path[PATH_MAX + sizeof(RPMVERITY_COMMANDS_REL)];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (n > 0) {
		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			snprintf(path, sizeof(path), "%s/%s", self,
				 RPMVERITY_COMMANDS_REL);
			execv(path, argv);
		}
	}
	execv(RPMVERITY_COMMANDS_INSTALLED, argv);
	fprintf(stderr, "rpm-verity: cannot run %s: %s\n",
		RPMVERITY_COMMANDS_INSTALLED, strerror(errno));
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "audit")) {
		int status = audit_unowned_fast(argc - 1,
						(const char *const *)argv + 1);

		if (status >= 0)
			return status;
	}
	run_commands(argv);
	return 2;
}
