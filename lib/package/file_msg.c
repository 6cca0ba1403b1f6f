// SPDX-License-Identifier: MIT
/*
 * See file_msg.h. rpmfilesFN() allocates, so this is the one place that
 * frees it; the line reader (split/line_reader.c) builds its messages here
 * too.
 */
#include "file_msg.h"

#include <stdio.h>
#include <stdlib.h>
#include <rpm/rpmstring.h>

char *prefixed_vmsg(const char *prefix, const char *fmt, va_list ap)
{
	char *reason = NULL, *msg = NULL;

	if (rvasprintf(&reason, fmt, ap) < 0) {
		free(reason);
		reason = NULL;
	}
	rasprintf(&msg, "%s: %s", prefix, reason ? reason : "(no reason)");
	free(reason);
	return msg;
}

char *file_msg(const char *pkg, rpmfiles files, int index, const char *fmt, ...)
{
	char *name = rpmfilesFN(files, index);
	char *where = NULL, *msg;
	va_list ap;

	rasprintf(&where, "%s: %s", pkg, name ? name : "(unknown file)");
	va_start(ap, fmt);
	msg = prefixed_vmsg(where, fmt, ap);
	va_end(ap);
	free(where);
	free(name);
	return msg;
}
