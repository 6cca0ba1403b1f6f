// SPDX-License-Identifier: MIT
/*
 * Whether the system rpm installs into loads the certificates at boot.
 * Linux 6.1 checks a file's fs-verity signature against .fs-verity at its
 * first open after every boot, and that keyring starts empty: without a
 * boot-time loader (rpm-verity-load-certs run by an initramfs hook, a dracut
 * module or the systemd unit) every file the plugin protected is unreadable
 * after the next reboot. The plugin warns about it (verity.c); this file
 * only looks for the loader's files under the root.
 */
#include "verity.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Where cmake installed them, then where distributions put such files. */
static const char *const boot_loader_files[] = {
#ifdef RPMVERITY_BOOT_FILES
	RPMVERITY_BOOT_FILES,
#endif
	"/usr/lib/systemd/system/rpm-verity-load-certs.service",
	"/lib/systemd/system/rpm-verity-load-certs.service",
	"/etc/systemd/system/rpm-verity-load-certs.service",
	"/usr/local/lib/systemd/system/rpm-verity-load-certs.service",
	"/usr/lib/dracut/modules.d/90rpm-verity/module-setup.sh",
	"/usr/share/initramfs-tools/hooks/rpm-verity",
	"/etc/initramfs-tools/hooks/rpm-verity",
};

bool verity_boot_loader_installed(const char *root)
{
	char path[4096];

	if (root == NULL || strcmp(root, "/") == 0)
		root = "";
	for (size_t i = 0; i < sizeof(boot_loader_files) /
			       sizeof(boot_loader_files[0]); i++) {
		int n = snprintf(path, sizeof(path), "%s%s", root,
				 boot_loader_files[i]);

		if (n > 0 && (size_t)n < sizeof(path) &&
		    access(path, F_OK) == 0) {
			rpmlog(RPMLOG_DEBUG, "verity: boot-time certificate "
			       "loader: %s\n", path);
			return true;
		}
	}
	return false;
}
