/* ipe-probe: tries each way of running code that IPE (Linux 6.12) judges,
 * and prints what the kernel answered, one line per probe.
 *
 * It exists because the VM guest runs its userspace from the host's / over
 * 9p, where no file has an fs-verity signature: under a policy that denies
 * unsigned execution, the test script can start no program at all. So the
 * probes run inside this one process, started before enforcement: with
 * --enforce FILE it writes 1 to IPE's enforce switch, runs every probe, and
 * writes 0 again before it exits, so the shell can go on.
 *
 * usage: ipe-probe [--enforce FILE] PROBE...
 *   exec:PATH       fork and execve(PATH)
 *   memfd:PATH      PATH's bytes copied into a memfd, then fexecve
 *   dlopen:PATH     dlopen(PATH, RTLD_NOW)
 *   mmap:PATH       mmap(PROT_READ|PROT_EXEC) of PATH
 *   anon-mmap       an anonymous mmap(PROT_READ|PROT_EXEC)
 *   anon-mprotect   an anonymous read-write page mprotect'ed to PROT_EXEC
 * Each line: PROBE<TAB>RESULT, RESULT one of ok, exitN, signalN, an errno
 * name (EACCES) or "dlerror: TEXT". Exit 0 if every probe ran, whatever it
 * found (the test judges); 1 on a usage or setup error. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *enforce_file;

static const char *errno_name(int e)
{
	const char *n = strerrorname_np(e);
	return n ? n : "E?";
}

static int write_switch(const char *value)
{
	int fd = open(enforce_file, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "ipe-probe: %s: cannot open: %s\n", enforce_file, strerror(errno));
		return -1;
	}
	ssize_t n = write(fd, value, strlen(value));
	int e = errno;
	close(fd);
	if (n != (ssize_t)strlen(value)) {
		fprintf(stderr, "ipe-probe: %s: cannot write %s: %s\n", enforce_file, value,
			n < 0 ? strerror(e) : "short write");
		return -1;
	}
	return 0;
}

/* Runs the program in a child: by path, or from fd when path is NULL. The
 * child reports execve's errno through a close-on-exec pipe, so a refused
 * exec is told apart from a program that ran and failed. */
static void run_child(const char *probe, const char *path, int fd)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0) {
		printf("%s\tpipe: %s\n", probe, errno_name(errno));
		return;
	}
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0) {
		printf("%s\tfork: %s\n", probe, errno_name(errno));
		close(p[0]);
		close(p[1]);
		return;
	}
	if (pid == 0) {
		char *argv[] = { (char *)(path ? path : "memfd"), NULL };
		char *envp[] = { NULL };
		int null = open("/dev/null", O_RDWR);
		if (null >= 0) {
			dup2(null, STDOUT_FILENO);
			dup2(null, STDERR_FILENO);
		}
		if (path)
			execve(path, argv, envp);
		else
			fexecve(fd, argv, envp);
		int e = errno;
		if (write(p[1], &e, sizeof(e)) != (ssize_t)sizeof(e))
			_exit(126);
		_exit(127);
	}
	close(p[1]);
	int e = 0;
	ssize_t n = read(p[0], &e, sizeof(e));
	close(p[0]);
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (n == (ssize_t)sizeof(e))
		printf("%s\t%s\n", probe, errno_name(e));
	else if (WIFSIGNALED(st))
		printf("%s\tsignal%d\n", probe, WTERMSIG(st));
	else if (WEXITSTATUS(st) == 0)
		printf("%s\tok\n", probe);
	else
		printf("%s\texit%d\n", probe, WEXITSTATUS(st));
}

static void probe_memfd(const char *probe, const char *path)
{
	int in = open(path, O_RDONLY | O_CLOEXEC);
	if (in < 0) {
		printf("%s\topen: %s\n", probe, errno_name(errno));
		return;
	}
	int mfd = memfd_create("ipe-probe", MFD_CLOEXEC);
	if (mfd < 0) {
		printf("%s\tmemfd_create: %s\n", probe, errno_name(errno));
		close(in);
		return;
	}
	char buf[65536];
	ssize_t n;
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		if (write(mfd, buf, (size_t)n) != n) {
			printf("%s\twrite: %s\n", probe, errno_name(errno));
			goto out;
		}
	}
	if (n < 0) {
		printf("%s\tread: %s\n", probe, errno_name(errno));
		goto out;
	}
	run_child(probe, NULL, mfd);
out:
	close(mfd);
	close(in);
}

static void probe_dlopen(const char *probe, const char *path)
{
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (h) {
		printf("%s\tok\n", probe);
		dlclose(h);
		return;
	}
	/* glibc's message does not carry the errno of a refused mmap. */
	const char *msg = dlerror();
	printf("%s\tdlerror: %s\n", probe, msg ? msg : "?");
}

static void probe_mmap(const char *probe, const char *path)
{
	int fd = -1;
	int flags = MAP_PRIVATE | MAP_ANONYMOUS;
	if (path) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			printf("%s\topen: %s\n", probe, errno_name(errno));
			return;
		}
		flags = MAP_PRIVATE;
	}
	void *m = mmap(NULL, 4096, PROT_READ | PROT_EXEC, flags, fd, 0);
	if (m == MAP_FAILED)
		printf("%s\t%s\n", probe, errno_name(errno));
	else {
		printf("%s\tok\n", probe);
		munmap(m, 4096);
	}
	if (fd >= 0)
		close(fd);
}

static void probe_mprotect(const char *probe)
{
	void *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED) {
		printf("%s\tmmap: %s\n", probe, errno_name(errno));
		return;
	}
	if (mprotect(m, 4096, PROT_READ | PROT_EXEC) < 0)
		printf("%s\t%s\n", probe, errno_name(errno));
	else
		printf("%s\tok\n", probe);
	munmap(m, 4096);
}

static int known(const char *probe)
{
	static const char *const prefixes[] = { "exec:", "memfd:", "dlopen:", "mmap:" };
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (strncmp(probe, prefixes[i], strlen(prefixes[i])) == 0 &&
		    probe[strlen(prefixes[i])] != '\0')
			return 1;
	return strcmp(probe, "anon-mmap") == 0 || strcmp(probe, "anon-mprotect") == 0;
}

static void run_probe(const char *probe)
{
	const char *arg = strchr(probe, ':');
	arg = arg ? arg + 1 : NULL;
	if (strncmp(probe, "exec:", 5) == 0)
		run_child(probe, arg, -1);
	else if (strncmp(probe, "memfd:", 6) == 0)
		probe_memfd(probe, arg);
	else if (strncmp(probe, "dlopen:", 7) == 0)
		probe_dlopen(probe, arg);
	else if (strncmp(probe, "mmap:", 5) == 0)
		probe_mmap(probe, arg);
	else if (strcmp(probe, "anon-mmap") == 0)
		probe_mmap(probe, NULL);
	else
		probe_mprotect(probe);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	int i = 1;
	if (i + 1 < argc && strcmp(argv[i], "--enforce") == 0) {
		enforce_file = argv[i + 1];
		i += 2;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: ipe-probe [--enforce FILE] PROBE...\n");
		return 1;
	}
	for (int j = i; j < argc; j++) {
		if (!known(argv[j])) {
			fprintf(stderr, "ipe-probe: unknown probe '%s'\n", argv[j]);
			return 1;
		}
	}
	if (enforce_file && write_switch("1") < 0)
		return 1;
	for (; i < argc; i++)
		run_probe(argv[i]);
	if (enforce_file && write_switch("0") < 0)
		return 1;
	return 0;
}
