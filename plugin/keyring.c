// SPDX-License-Identifier: MIT
/*
 * The plugin's entrance to common/verity_keyring.c, the code the boot-time
 * loader (rpm-verity-load-certs) uses too: the settings come from the
 * macros, the messages go to rpmlog.
 */
#include "verity.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((format(printf, 3, 4)))
static void to_rpmlog(void *ctx, int level, const char *fmt, ...)
{
	char *msg = NULL;
	va_list ap;

	(void)ctx;
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) >= 0)
		rpmlog(level, "%s", msg);
	va_end(ap);
	free(msg);
}

enum verity_keyring_rc verity_keyring_setup(const struct verity_settings *s,
					    int fail_level)
{
	struct verity_keyring_opts o = {
		.certs = s->certs,
		.trust = s->keyring_trust,
		.lock = s->lock_keyring,
		.require_signatures = s->require_signatures,
		.fail_level = fail_level,
		.log = to_rpmlog,
	};
	struct verity_keyring_result r;

	return verity_keyring_load(&o, &r);
}
