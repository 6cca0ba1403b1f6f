// SPDX-License-Identifier: MIT
/*
 * Options several subcommands share: the signing key, certificate and
 * passphrase with rpm's macros as defaults (sign and sign-digests), the
 * hash algorithm, output directories; the command line itself (jobs,
 * usage) and how a command reports a problem.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <openssl/crypto.h>
#include <rpm/rpmmacro.h>
#include <rpm/rpmstring.h>

#include "cli.h"

char *read_passphrase(const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	if (!f) {
		report(rstrscat(NULL, path, ": cannot read passphrase file: ",
				strerror(errno), NULL));
		return NULL;
	}
	n = getline(&line, &cap, f);
	fclose(f);
	if (n < 0) {
		free(line);
		return rstrdup("");
	}
	line[strcspn(line, "\r\n")] = '\0';
	return line;
}

char *option_or_macro(const char *value, const char *macro)
{
	char *s;

	if (value)
		return rstrdup(value);
	s = rpmExpand(macro, NULL);
	if (s && *s)
		return s;
	free(s);
	return NULL;
}

static char *keyopt, *certopt, *passfile;

struct poptOption key_option_table[] = {
	{ "key", 'k', POPT_ARG_STRING, &keyopt, 0,
	  "private key: PEM file or pkcs11: URI (default: %_file_signing_key)",
	  "KEY" },
	{ "cert", 'c', POPT_ARG_STRING, &certopt, 0,
	  "X.509 certificate, PEM or DER (default: %_file_signing_cert)",
	  "CERT" },
	{ "pass-file", 'p', POPT_ARG_STRING, &passfile, 0,
	  "the key's passphrase or the token's PIN, first line of FILE "
	  "(default: %_file_signing_key_password)", "FILE" },
	POPT_TABLEEND
};

void free_key_options(void)
{
	free(keyopt);
	free(certopt);
	free(passfile);
	keyopt = certopt = passfile = NULL;
}

struct signing_key *load_key_options(void)
{
	char *keypath = option_or_macro(keyopt, "%{?_file_signing_key}");
	char *certpath = option_or_macro(certopt, "%{?_file_signing_cert}");
	char *pass = NULL, *err = NULL;
	struct signing_key *key = NULL;

	if (!keypath || !certpath) {
		report(rstrdup("no signing key or certificate: give --key and --cert, or set %_file_signing_key and %_file_signing_cert"));
		goto out;
	}
	if (passfile) {
		pass = read_passphrase(passfile);
		if (!pass)
			goto out;
	} else {
		pass = option_or_macro(NULL, "%{?_file_signing_key_password}");
	}
	key = signing_key_load(keypath, certpath, pass, &err);
	if (!key)
		report(err);
out:
	if (pass)
		OPENSSL_cleanse(pass, strlen(pass));
	free(pass);
	free(keypath);
	free(certpath);
	return key;
}

const struct verity_hash_alg *alg_option(const char *algoopt)
{
	char *name = option_or_macro(algoopt, "%{?_verity_algorithm}");
	const struct verity_hash_alg *alg =
		verity_hash_alg_by_name(name ? name : "sha256");

	if (!alg)
		report(rstrscat(NULL, "unknown fs-verity hash algorithm '",
				name, "' (use sha256 or sha512)", NULL));
	free(name);
	return alg;
}

int is_writable_dir(const char *dir)
{
	struct stat st;

	if (stat(dir, &st) != 0) {
		report(rstrscat(NULL, dir, ": output directory: ", strerror(errno), NULL));
		return 0;
	}
	if (!S_ISDIR(st.st_mode)) {
		report(rstrscat(NULL, dir, ": output directory: not a directory", NULL));
		return 0;
	}
	if (access(dir, W_OK | X_OK) != 0) {
		report(rstrscat(NULL, dir, ": output directory: ", strerror(errno), NULL));
		return 0;
	}
	return 1;
}

char *output_path(const char *outdir, const char *pkg)
{
	const char *base = strrchr(pkg, '/');

	if (!outdir)
		return rstrdup(pkg);
	return rstrscat(NULL, outdir, "/", base ? base + 1 : pkg, NULL);
}

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
