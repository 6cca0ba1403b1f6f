// SPDX-License-Identifier: MIT
/*
 * rpm-verity-load-certs: puts the fs-verity certificates into the kernel's
 * .fs-verity keyring at boot, before the first protected file is opened.
 * Linux 6.1 checks a file's builtin signature against that keyring at the
 * first open after every boot, and the keyring starts empty, so a system
 * whose files the plugin protected needs this before it reads any of them.
 *
 * The certificates are those of %_fsverity_certs plus every *.pem, *.der and
 * *.crt in /etc/pki/rpm-verity/, and %_fsverity_lock_keyring and
 * %_fsverity_require_signatures apply, as in the plugin, through the same
 * code (common/verity_keyring.c). An initramfs runs it with --no-config and
 * the files and switches its hook chose when the image was built
 * (--print-config tells the hook what they are).
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>

#include <rpm/rpmlib.h>
#include <rpm/rpmmacro.h>

#include "verity_keyring.h"

#define PROG "rpm-verity-load-certs"
#define DEFAULT_DROPIN_DIR "/etc/pki/rpm-verity"

static int verbosity = LOG_NOTICE;	/* the most detailed level shown */

__attribute__((format(printf, 3, 4)))
static void to_stderr(void *ctx, int level, const char *fmt, ...)
{
	va_list ap;

	(void)ctx;
	if (level > verbosity)
		return;
	/* The shared code says "verity: ..."; say who we are instead. */
	if (strncmp(fmt, "verity: ", 8) == 0)
		fmt += 8;
	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A growing space-separated list of files (the form the shared code takes). */
struct word_list {
	char *s;
	size_t len;
	unsigned int n;
};

static int list_add(struct word_list *l, const char *root, const char *word)
{
	size_t add = strlen(root) + strlen(word) + 1;
	char *grown = realloc(l->s, l->len + add + 1);

	if (grown == NULL)
		return -1;
	l->s = grown;
	l->len += (size_t)sprintf(l->s + l->len, "%s%s%s", l->len ? " " : "",
				  root, word);
	l->n++;
	return 0;
}

/* Each word of a macro's value, as a file under root. */
static int list_add_words(struct word_list *l, const char *root,
			  const char *words)
{
	char *copy = strdup(words), *save = NULL, *w;
	int rc = copy ? 0 : -1;

	for (w = copy ? strtok_r(copy, " \t\n", &save) : NULL; w && rc == 0;
	     w = strtok_r(NULL, " \t\n", &save))
		rc = list_add(l, root, w);
	free(copy);
	return rc;
}

static int is_cert_name(const struct dirent *d)
{
	static const char *const exts[] = { ".pem", ".der", ".crt" };
	size_t len = strlen(d->d_name);

	if (d->d_name[0] == '.')
		return 0;
	for (size_t i = 0; i < sizeof(exts) / sizeof(exts[0]); i++)
		if (len > 4 && strcmp(d->d_name + len - 4, exts[i]) == 0)
			return 1;
	return 0;
}

/* The drop-in directory's certificates, in name order; a missing one is empty. */
static int list_add_dir(struct word_list *l, const char *root, const char *dir)
{
	struct dirent **names = NULL;
	char *path = NULL;
	int n, rc = 0;

	if (asprintf(&path, "%s%s", root, dir) < 0)
		return -1;
	n = scandir(path, &names, is_cert_name, alphasort);
	if (n < 0) {
		if (errno != ENOENT) {
			fprintf(stderr, PROG ": %s: cannot list the certificate "
				"directory: %s\n", path, strerror(errno));
			rc = -1;
		}
		free(path);
		return rc;
	}
	for (int i = 0; i < n; i++) {
		if (strpbrk(names[i]->d_name, " \t\n")) {
			fprintf(stderr, PROG ": %s/%s: white space in a "
				"certificate file name is not supported\n", path,
				names[i]->d_name);
			rc = -1;
		} else if (rc == 0) {
			char *file = NULL;

			rc = asprintf(&file, "%s/%s", path, names[i]->d_name) < 0
				? -1 : list_add(l, "", file);
			free(file);
		}
		free(names[i]);
	}
	free(names);
	free(path);
	return rc;
}

static bool macro_bool(const char *expr)
{
	return rpmExpandNumeric(expr) != 0;
}

struct config {
	bool use_config;	/* read rpm's macros and the drop-in directory */
	const char *root;
	const char *dropin_dir;
	const char *trust;	/* NULL: as configured */
	int lock;		/* -1: as configured */
	int require;		/* -1: as configured */
	bool check;
	bool print_config;
};

/* What rpm's configuration asks for, into files/trust/lock/require. */
static int read_rpm_config(const struct config *c, struct word_list *files,
			   char **trust, bool *lock, bool *require)
{
	char *certs;
	int rc;

	if (rpmReadConfigFiles(NULL, NULL) != 0) {
		fprintf(stderr, PROG ": cannot read rpm's configuration "
			"(macros)\n");
		return -1;
	}
	certs = rpmExpand("%{?_fsverity_certs}", NULL);
	rc = list_add_words(files, c->root, certs);
	free(certs);
	*trust = rpmExpand("%{?_fsverity_keyring_trust}", NULL);
	*lock = macro_bool("%{?_fsverity_lock_keyring}");
	*require = macro_bool("%{?_fsverity_require_signatures}");
	if (rc == 0)
		rc = list_add_dir(files, c->root, c->dropin_dir);
	rpmFreeMacros(NULL);
	rpmFreeRpmrc();
	return rc;
}

static void usage(FILE *out)
{
	fprintf(out,
"usage: " PROG " [OPTION...] [CERT...]\n"
"Load fs-verity certificates into the kernel's .fs-verity keyring; run at\n"
"boot, before any file protected by rpm-plugin-verity is opened.\n"
"\n"
"By default the certificates are those of rpm's %%_fsverity_certs and every\n"
"*.pem, *.der and *.crt in " DEFAULT_DROPIN_DIR "/, plus each CERT given;\n"
"%%_fsverity_keyring_trust, %%_fsverity_lock_keyring and\n"
"%%_fsverity_require_signatures apply.\n"
"\n"
"Before loading, the keyring is restricted to certificates signed by a key\n"
"the kernel trusts, as .ima is; a certificate signed by none is refused.\n"
"\n"
"  -n, --no-config              only the CERTs and switches given here\n"
"  -r, --root DIR               configured certificates are under DIR\n"
"  -d, --dropin-dir DIR         the drop-in directory (default " DEFAULT_DROPIN_DIR ")\n"
"  -t, --trust KEYS             which keys must have signed each certificate:\n"
"                               the kernel's " VERITY_TRUST_DEFAULT "\n"
"                               (default) or " VERITY_TRUST_BUILTIN " keys, the CA\n"
"                               in a file (" VERITY_TRUST_CA_PREFIX "/PATH/TO/CA.pem), or " VERITY_TRUST_NONE "\n"
"  -l, --lock / --no-lock       lock the keyring after loading (or not)\n"
"  -s, --require-signatures / --no-require-signatures\n"
"                               set fs.verity.require_signatures=1 (or not)\n"
"  -c, --check                  only say whether each certificate is loaded\n"
"                               (exit 1 if one is not); changes nothing\n"
"  -p, --print-config           print the certificate files and switches that\n"
"                               would be used, one per line, and exit\n"
"  -q, --quiet                  print errors only\n"
"  -v, --verbose                name each certificate (twice: more)\n"
"  -h, --help\n");
}

static void report(const struct verity_keyring_opts *o,
		   const struct verity_keyring_result *r, double seconds)
{
	char buf[128];

	if (verbosity < LOG_NOTICE)
		return;
	if (o->check_only) {
		fprintf(stderr, PROG ": %u certificate%s from %u file%s: %u "
			"loaded, %u not loaded, %u refused; .fs-verity holds "
			"%u key%s (%.1f ms)\n", r->certs,
			r->certs == 1 ? "" : "s", r->files,
			r->files == 1 ? "" : "s", r->present, r->missing,
			r->failed, r->keyring_keys,
			r->keyring_keys == 1 ? "" : "s", seconds * 1e3);
		return;
	}
	fprintf(stderr, PROG ": %u certificate%s from %u file%s: %u added, "
		"%u already present, %u failed; %s%s; .fs-verity holds "
		"%u key%s (%.1f ms)\n", r->certs, r->certs == 1 ? "" : "s",
		r->files, r->files == 1 ? "" : "s", r->added, r->present,
		r->failed, verity_restriction_describe(r, buf, sizeof(buf)),
		r->required ? ", require_signatures set" : "", r->keyring_keys,
		r->keyring_keys == 1 ? "" : "s", seconds * 1e3);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "no-config", no_argument, NULL, 'n' },
		{ "root", required_argument, NULL, 'r' },
		{ "dropin-dir", required_argument, NULL, 'd' },
		{ "trust", required_argument, NULL, 't' },
		{ "lock", no_argument, NULL, 'l' },
		{ "no-lock", no_argument, NULL, 'L' },
		{ "require-signatures", no_argument, NULL, 's' },
		{ "no-require-signatures", no_argument, NULL, 'S' },
		{ "check", no_argument, NULL, 'c' },
		{ "print-config", no_argument, NULL, 'p' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct config c = {
		.use_config = true, .root = "", .dropin_dir = DEFAULT_DROPIN_DIR,
		.lock = -1, .require = -1,
	};
	struct word_list files = { 0 };
	struct verity_keyring_opts o = { .fail_level = LOG_ERR,
					 .log = to_stderr };
	struct verity_keyring_result r;
	bool lock = false, require = false;
	char *trust = NULL;	/* as configured; "" or NULL: the default */
	double start = now();
	int opt, status = 1;

	while ((opt = getopt_long(argc, argv, "nr:d:t:lscpqvh", longopts,
				  NULL)) != -1) {
		switch (opt) {
		case 'n': c.use_config = false; break;
		case 'r': c.root = strcmp(optarg, "/") ? optarg : ""; break;
		case 'd': c.dropin_dir = optarg; break;
		case 't': c.trust = optarg; break;
		case 'l': c.lock = 1; break;
		case 'L': c.lock = 0; break;
		case 's': c.require = 1; break;
		case 'S': c.require = 0; break;
		case 'c': c.check = true; break;
		case 'p': c.print_config = true; break;
		case 'q': verbosity = LOG_ERR; break;
		case 'v': verbosity = verbosity < LOG_INFO ? LOG_INFO : LOG_DEBUG;
			  break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (c.use_config && read_rpm_config(&c, &files, &trust, &lock,
						  &require) < 0)
		goto out;
	for (int i = optind; i < argc; i++) {
		if (strchr(argv[i], ' ') || strchr(argv[i], '\t')) {
			fprintf(stderr, PROG ": %s: white space in a certificate "
				"file name is not supported\n", argv[i]);
			goto out;
		}
		if (list_add(&files, "", argv[i]) < 0)
			goto out;
	}
	if (c.lock >= 0)
		lock = c.lock;
	if (c.require >= 0)
		require = c.require;
	o.trust = c.trust ? c.trust : trust && *trust ? trust :
		  VERITY_TRUST_DEFAULT;
	if (!verity_trust_valid(o.trust)) {
		fprintf(stderr, PROG ": keyring trust \"%s\" (%s) is not "
			VERITY_TRUST_CHOICES "\n", o.trust, c.trust ? "--trust" :
			"%_fsverity_keyring_trust");
		goto out;
	}

	if (c.print_config) {
		char *save = NULL, *f;

		for (f = files.s ? strtok_r(files.s, " ", &save) : NULL; f;
		     f = strtok_r(NULL, " ", &save))
			printf("cert %s\n", f);
		printf("trust %s\nlock %d\nrequire-signatures %d\n", o.trust,
		       lock, require);
		status = 0;
		goto out;
	}
	if (files.n == 0 && !lock && !require && !c.check) {
		fprintf(stderr, PROG ": no certificate configured "
			"(%%_fsverity_certs, " DEFAULT_DROPIN_DIR "/ or the "
			"command line) and nothing else to do\n");
		goto out;
	}
	o.certs = files.s ? files.s : "";
	o.lock = lock;
	o.require_signatures = require;
	o.check_only = c.check;
	switch (verity_keyring_load(&o, &r)) {
	case VERITY_KEYRING_OK:
		status = c.check && r.missing ? 1 : 0;
		break;
	case VERITY_KEYRING_UNSUPPORTED:
		/*
		 * Nothing to load is the right outcome, not a failure: such a
		 * kernel opens every signed file, and a failed unit or a
		 * warning at every boot of Fedora would cry wolf.
		 */
		fprintf(stderr, PROG ": this kernel has no .fs-verity keyring "
			"(no CONFIG_FS_VERITY_BUILTIN_SIGNATURES): it checks no "
			"fs-verity signature, so nothing loaded; on such a kernel "
			"rpm-verity-enforcer(8) checks them\n");
		status = 0;
		goto out;
	case VERITY_KEYRING_FAILED:
		/* Each failure is reported; then what was done beside them. */
		if (r.reached)
			report(&o, &r, now() - start);
		goto out;
	}
	report(&o, &r, now() - start);
out:
	free(files.s);
	free(trust);
	return status;
}
