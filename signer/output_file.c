// SPDX-License-Identifier: MIT
/* See output_file.h. */
#include "output_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <rpm/rpmstring.h>

#include "cli.h"

int output_open(struct output_file *o, const char *path)
{
	memset(o, 0, sizeof(*o));
	o->path = path;
	if (!path || !strcmp(path, "-")) {
		o->path = NULL;
		o->f = stdout;
		return 0;
	}
	rasprintf(&o->tmp, "%s.tmp.%d", path, (int)getpid());
	o->f = fopen(o->tmp, "wx");
	if (!o->f) {
		report(rstrscat(NULL, path, ": cannot create: ", strerror(errno), NULL));
		free(o->tmp);
		o->tmp = NULL;
		return -1;
	}
	return 0;
}

int output_close(struct output_file *o, int ok)
{
	int rc = 0;

	if (!o->f)
		return -1;
	if (fflush(o->f) != 0 || ferror(o->f) ||
	    (o->path && fsync(fileno(o->f)) != 0)) {
		if (ok)
			report(rstrscat(NULL, o->path ? o->path : "stdout",
					": cannot write: ", strerror(errno), NULL));
		ok = 0;
	}
	if (o->path) {
		if (fclose(o->f) != 0 && ok) {
			report(rstrscat(NULL, o->path, ": cannot write: ",
					strerror(errno), NULL));
			ok = 0;
		}
		if (ok && rename(o->tmp, o->path) != 0) {
			report(rstrscat(NULL, o->path, ": cannot write: ",
					strerror(errno), NULL));
			ok = 0;
		}
		if (!ok)
			unlink(o->tmp);
		free(o->tmp);
	}
	o->f = NULL;
	rc = ok ? 0 : -1;
	return rc;
}
