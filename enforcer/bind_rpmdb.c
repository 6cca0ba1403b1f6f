// SPDX-License-Identifier: MIT
/*
 * The table at load time: the audit's engine reads every installed
 * package's files and checks each against its signature (measured digest,
 * a trusted signer, the signature over that digest); each file that passes
 * is bound at the path it was opened at. A file that fails is reported as
 * the audit reports it and left unbound, so it cannot run under enforce.
 * Without a table (a map_fd of -1: load --dry-run) only the counts come out.
 */
#include "enforcer.h"
#include "enforcer_table.h"
#include "audit.h"
#include "file_rule.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct binder {
	int map_fd;
	unsigned long bound;
};

static void bind_verified(void *arg, int fd, const struct audit_file_state *st)
{
	struct binder *b = arg;
	char *path = enforcer_fd_path(fd);
	int rc = !path ? -ENOENT : b->map_fd < 0 ? 0 :
		 enforcer_bind(b->map_fd, path, st->digest_alg, st->digest,
			       st->digest_size);

	if (rc)
		fprintf(stderr, "rpm-verity-enforcer: %s: not bound: %s\n",
			path ? path : "(a file without a path)", strerror(-rc));
	else
		b->bound++;
	free(path);
}

int enforcer_bind_rpmdb(int map_fd, const struct load_opts *o,
			unsigned long *bound, unsigned long *refused)
{
	struct audit_system sys;
	struct audit_report rep = { .out = stderr };
	struct binder b = { .map_fd = map_fd };
	int rc = -1;

	if (audit_system_open(&sys, "rpm-verity-enforcer", o->root, o->dbpath,
			      o->certs) == 0) {
		struct audit_packages_opts po = {
			.root = &sys.root, .ts = sys.ts, .certs = sys.certs,
			.ncerts = sys.ncerts, .rep = &rep,
			.sign_config_files = verity_sign_config_files(),
			.verified = bind_verified, .arg = &b,
		};

		rc = audit_packages(&po);
		if (sys.rpm_errors)
			fprintf(stderr, "rpm-verity-enforcer: %s: the rpmdb could not be read whole (above); those packages' files stay unbound\n",
				sys.dbdir);
	}
	audit_system_close(&sys);
	*bound = b.bound;
	*refused = rep.checked - b.bound;
	return rc;
}
