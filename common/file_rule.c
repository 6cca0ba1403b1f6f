// SPDX-License-Identifier: MIT
/* The signed/protected rule (file_rule.h), in one place. */
#include "file_rule.h"

#include <sys/stat.h>
#include <rpm/rpmmacro.h>

bool verity_file_signed(mode_t mode, rpmfileAttrs flags)
{
	return S_ISREG(mode) && !(flags & RPMFILE_GHOST);
}

bool verity_file_protected(mode_t mode, rpmfileAttrs flags,
			   bool sign_config_files)
{
	if (!verity_file_signed(mode, flags))
		return false;
	return !(flags & RPMFILE_CONFIG) || (mode & 0111) || sign_config_files;
}

bool verity_sign_config_files(void)
{
	return rpmExpandNumeric("%{?_fsverity_sign_config_files}") != 0;
}
