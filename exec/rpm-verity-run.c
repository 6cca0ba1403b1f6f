// SPDX-License-Identifier: MIT
/*
 * rpm-verity-run: runs a script with its interpreter only if the kernel says
 * the script itself may be executed.
 *
 * Why it exists: IPE and IMA judge what the kernel executes, and `sh
 * script` executes sh, not the script, so an unsigned script runs through a
 * signed interpreter. Since Linux 6.14 a program can ask first, with
 * execveat(fd, "", ..., AT_EMPTY_PATH | AT_EXECVE_CHECK), which runs the
 * exec-time checks (permission bits, noexec mounts, the LSMs: IPE from 6.19,
 * IMA's BPRM_CHECK from 6.14) on an open file and returns without executing
 * it. No interpreter Debian ships asks; this launcher asks for them.
 *
 * It checks the descriptor it opened, and hands the interpreter that same
 * file as /proc/self/fd/N (the descriptor survives the exec): a rename or a
 * replacement of SCRIPT's path after the check cannot put other bytes
 * under the interpreter, as passing the path would. The file itself is
 * immutable when fs-verity protects it, which is what a policy of signed
 * code asks for.
 *
 * The answer is enforced whatever the SECBIT_EXEC_RESTRICT_FILE securebit
 * says: running a script through this program is the opt-in. A kernel that
 * cannot check (EINVAL: before 6.14) is refused too, unless
 * --allow-unchecked says to run the script anyway.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef AT_EXECVE_CHECK
#define AT_EXECVE_CHECK 0x10000	/* include/uapi/linux/fcntl.h, Linux 6.14 */
#endif

#define PROG "rpm-verity-run"

/* The shell's statuses: found but cannot be executed, and not found. */
#define EXIT_CANNOT_EXEC 126
#define EXIT_NOT_FOUND 127
#define EXIT_USAGE 2

extern char **environ;

static void usage(FILE *out)
{
	fprintf(out,
		"usage: " PROG " [--allow-unchecked] [--] INTERPRETER SCRIPT [ARG...]\n"
		"Runs INTERPRETER /proc/self/fd/N ARG..., N an open descriptor of SCRIPT,\n"
		"if the kernel allows SCRIPT to be executed (execveat AT_EXECVE_CHECK).\n"
		"  --allow-unchecked  run it on a kernel that cannot check (before Linux 6.14)\n"
		"Exit status: the interpreter's; 126 if SCRIPT is refused or cannot be\n"
		"checked, 127 if SCRIPT or INTERPRETER does not exist, 2 on a usage error.\n");
}

static int status_for(int err)
{
	return err == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_EXEC;
}

/* Why the kernel said no, in words a user acts on. */
static const char *refusal_hint(int err)
{
	switch (err) {
	case EACCES:
		return " (not executable, on a noexec mount, or refused by a security"
		       " policy such as IPE or IMA: see the audit log)";
	case EPERM:
		return " (refused by a security policy)";
	default:
		return "";
	}
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "allow-unchecked", no_argument, NULL, 'u' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int allow_unchecked = 0;
	int c;

	/* '+': stop at INTERPRETER, so the script's own options stay its own. */
	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		switch (c) {
		case 'u':
			allow_unchecked = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (argc - optind < 2) {
		fprintf(stderr, PROG ": %s\n", argc - optind == 0 ?
			"no INTERPRETER and SCRIPT given" : "no SCRIPT given");
		usage(stderr);
		return EXIT_USAGE;
	}
	const char *interp = argv[optind];
	const char *script = argv[optind + 1];
	char **script_args = argv + optind + 2;
	int nargs = argc - optind - 2;

	int fd = open(script, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		int err = errno;
		fprintf(stderr, PROG ": %s: cannot open: %s\n", script, strerror(err));
		return status_for(err);
	}
	/* Started with a standard descriptor closed, the script would take its
	 * number, and the interpreter would read its program as its input. */
	if (fd <= STDERR_FILENO) {
		int moved = fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
		if (moved < 0) {
			fprintf(stderr, PROG ": %s: cannot move its descriptor: %s\n", script,
				strerror(errno));
			return EXIT_CANNOT_EXEC;
		}
		close(fd);
		fd = moved;
	}

	char *check_argv[] = { (char *)script, NULL };
	if (execveat(fd, "", check_argv, environ, AT_EMPTY_PATH | AT_EXECVE_CHECK) != 0) {
		int err = errno;
		if (err == EINVAL && allow_unchecked) {
			fprintf(stderr, PROG ": %s: warning: not checked, the kernel has no "
				"AT_EXECVE_CHECK (Linux 6.14 or later); running it as asked "
				"(--allow-unchecked)\n", script);
		} else if (err == EINVAL) {
			fprintf(stderr, PROG ": %s: refused: the kernel cannot check it: execveat "
				"AT_EXECVE_CHECK: %s (Linux 6.14 or later has it; "
				"--allow-unchecked runs scripts unchecked)\n", script, strerror(err));
			return EXIT_CANNOT_EXEC;
		} else {
			fprintf(stderr, PROG ": %s: refused: the kernel does not allow it to be "
				"executed: %s%s\n", script, strerror(err), refusal_hint(err));
			return EXIT_CANNOT_EXEC;
		}
	}

	/* The checked descriptor, open across the exec, names the file. */
	if (fcntl(fd, F_SETFD, 0) != 0) {
		fprintf(stderr, PROG ": %s: cannot keep its descriptor open: %s\n", script,
			strerror(errno));
		return EXIT_CANNOT_EXEC;
	}
	char fd_path[32];
	snprintf(fd_path, sizeof(fd_path), "/proc/self/fd/%d", fd);

	char **args = calloc((size_t)nargs + 3, sizeof(*args));
	if (!args) {
		fprintf(stderr, PROG ": out of memory\n");
		return EXIT_CANNOT_EXEC;
	}
	args[0] = (char *)interp;
	args[1] = fd_path;
	for (int i = 0; i < nargs; i++)
		args[i + 2] = script_args[i];
	execvp(interp, args);
	int err = errno;
	fprintf(stderr, PROG ": %s: cannot run the interpreter: %s\n", interp, strerror(err));
	free(args);
	return status_for(err);
}
