// SPDX-License-Identifier: MIT
/* See file_msg.h. rpmfilesFN() allocates, so this is the one place that frees it. */
#include "file_msg.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <rpm/rpmstring.h>

char *file_msg(const char *pkg, rpmfiles files, int index, const char *fmt, ...)
{
	char *name = rpmfilesFN(files, index);
	char *reason = NULL, *msg = NULL;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&reason, fmt, ap) < 0)
		reason = NULL;
	va_end(ap);
	rasprintf(&msg, "%s: %s: %s", pkg, name ? name : "(unknown file)",
		  reason ? reason : "(out of memory)");
	free(reason);
	free(name);
	return msg;
}
