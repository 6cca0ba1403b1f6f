// SPDX-License-Identifier: MIT
/*
 * rpm-verity strip: remove fs-verity signatures and IMA file signatures
 * (tags 274/275, whoever made them), leave everything else.
 */
#include <popt.h>
#include <stdio.h>
#include <rpm/rpmstring.h>

#include "cli.h"
#include "ima_tags.h"
#include "package.h"
#include "verity_tags.h"

static int strip_package(const char *path)
{
	struct package pkg;
	Header sigh = NULL, without_verity = NULL;
	char *err = NULL;
	int rc = -1;

	if (package_open(&pkg, path, &err) != 0) {
		report(err);
		return -1;
	}
	if (!verity_tags_present(pkg.sigh) && !ima_tags_present(pkg.sigh)) {
		printf("%s: no fs-verity or IMA signatures, left as it was\n", path);
		rc = 0;
	} else if (package_check_digests(&pkg, NULL, &err) != 0) {
		/* a damaged package is refused, not rewritten */
	} else if (!(without_verity = verity_tags_replace(pkg.sigh, NULL, 0, 0)) ||
		   !(sigh = ima_tags_replace(without_verity, NULL))) {
		rasprintf(&err, "%s: cannot build the signature header", path);
	} else if (package_write(&pkg, sigh, path, &err) == 0) {
		printf("%s: fs-verity and IMA signatures removed\n", path);
		rc = 0;
	}
	if (err)
		report(err);
	headerFree(sigh);
	headerFree(without_verity);
	package_close(&pkg);
	return rc;
}

int cmd_strip(int argc, const char **argv)
{
	struct poptOption opts[] = {
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext("rpm-verity strip", argc, argv, opts, 0);
	const char **pkgs;
	int failed = 0;

	poptSetOtherOptionHelp(ctx, "PACKAGE.rpm...");
	pkgs = parse_command_line(ctx, "strip", NULL);
	if (!pkgs) {
		poptFreeContext(ctx);
		return 2;
	}
	for (; *pkgs; pkgs++)
		failed |= strip_package(*pkgs) != 0;
	poptFreeContext(ctx);
	return failed;
}
