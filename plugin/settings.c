// SPDX-License-Identifier: MIT
/*
 * The plugin's settings are rpm macros (documented in macros.verity and
 * rpm-plugin-verity(8)); this file reads them once per transaction.
 */
#include "verity.h"
#include "file_rule.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <rpm/rpmmacro.h>

static char *trimmed(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

static bool macro_bool(const char *expr)
{
	return rpmExpandNumeric(expr) != 0;
}

static bool parse_policy(const char *value, enum verity_policy *out)
{
	static const struct {
		const char *name;
		enum verity_policy policy;
	} names[] = {
		{ "enforce", VERITY_POLICY_ENFORCE },
		{ "warn", VERITY_POLICY_WARN },
		{ "off", VERITY_POLICY_OFF },
	};

	if (*value == '\0') {
		*out = VERITY_POLICY_WARN;
		return true;
	}
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(value, names[i].name) == 0) {
			*out = names[i].policy;
			return true;
		}
	}
	return false;
}

const char *verity_policy_name(enum verity_policy p)
{
	switch (p) {
	case VERITY_POLICY_OFF:
		return "off";
	case VERITY_POLICY_ENFORCE:
		return "enforce";
	case VERITY_POLICY_WARN:
		break;
	}
	return "warn";
}

bool verity_settings_load(struct verity_settings *s)
{
	char *raw = rpmExpand("%{?_fsverity_policy}", NULL);
	bool ok = parse_policy(trimmed(raw), &s->policy);

	if (!ok)
		rpmlog(RPMLOG_ERR,
		       "verity: %%_fsverity_policy is \"%s\"; it must be "
		       "enforce, warn or off\n", trimmed(raw));
	free(raw);

	raw = rpmExpand("%{?_fsverity_certs}", NULL);
	s->certs = rstrdup(trimmed(raw));
	free(raw);

	raw = rpmExpand("%{?_fsverity_keyring_trust}", NULL);
	s->keyring_trust = rstrdup(*trimmed(raw) ? trimmed(raw) :
				   VERITY_TRUST_DEFAULT);
	free(raw);
	if (s->keyring_trust && !verity_trust_valid(s->keyring_trust)) {
		rpmlog(RPMLOG_ERR, "verity: %%_fsverity_keyring_trust is "
		       "\"%s\"; it must be " VERITY_TRUST_CHOICES "\n",
		       s->keyring_trust);
		ok = false;
	}
	s->lock_keyring = macro_bool("%{?_fsverity_lock_keyring}");
	s->require_signatures = macro_bool("%{?_fsverity_require_signatures}");
	s->sign_config_files = verity_sign_config_files();
	s->require_fs_support = macro_bool("%{?_fsverity_require_fs_support}");
	s->summary = macro_bool("%{?_fsverity_summary}");
	s->boot_loader_warning = macro_bool(
		"%{!?_fsverity_boot_loader_warning:1}"
		"%{?_fsverity_boot_loader_warning}");
	return ok && s->certs != NULL && s->keyring_trust != NULL;
}

void verity_settings_free(struct verity_settings *s)
{
	free(s->certs);
	free(s->keyring_trust);
	s->certs = NULL;
	s->keyring_trust = NULL;
}
