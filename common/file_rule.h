/* SPDX-License-Identifier: MIT */
/*
 * The one rule for which files of a package carry an fs-verity signature
 * and which of those the plugin protects at install. The signer, verify,
 * the plugin and the audit all ask here (and the distribution's scripts ask
 * `rpm-verity verify --list`), so they cannot disagree.
 */
#ifndef RPMVERITY_FILE_RULE_H
#define RPMVERITY_FILE_RULE_H

#include <stdbool.h>
#include <sys/types.h>

#include <rpm/rpmfiles.h>

/*
 * Signed: a regular file whose content is in the payload (not %ghost).
 * Directories, symlinks, devices and %ghost files get an empty entry.
 */
bool verity_file_signed(mode_t mode, rpmfileAttrs flags);

/*
 * Protected at install: a signed file, except a non-executable %config
 * file (admins edit those) unless @sign_config_files
 * (%_fsverity_sign_config_files). An executable %config file is a program
 * and is protected.
 */
bool verity_file_protected(mode_t mode, rpmfileAttrs flags,
			   bool sign_config_files);

/*
 * %_fsverity_sign_config_files, the setting verity_file_protected() takes,
 * read from rpm's configuration here for the plugin and the audit alike.
 */
bool verity_sign_config_files(void);

/* verity_file_signed() for file @i of @files. */
static inline bool verity_files_signed(rpmfiles files, int i)
{
	return verity_file_signed(rpmfilesFMode(files, i),
				  rpmfilesFFlags(files, i));
}

#endif
