// SPDX-License-Identifier: MIT
/*
 * fuzz-seed-header PACKAGE OUT: writes the header rpm makes of PACKAGE (main
 * header with the signature tags merged in, as the plugin and the rpmdb see
 * it) in headerImport's format, a seed for fuzz_audit_header
 * (and, after a file count byte, for fuzz_package_sigs).
 */
#include <stdio.h>
#include <stdlib.h>
#include <rpm/header.h>
#include <rpm/rpmlib.h>
#include <rpm/rpmmacro.h>
#include <rpm/rpmts.h>

int main(int argc, char **argv)
{
	rpmts ts;
	FD_t fd;
	Header h = NULL;
	unsigned int len = 0;
	void *blob;
	FILE *out;
	rpmRC rc;

	if (argc != 3) {
		fprintf(stderr, "usage: fuzz-seed-header PACKAGE OUT\n");
		return 2;
	}
	if (rpmReadConfigFiles(NULL, NULL) != 0)
		return 1;
	ts = rpmtsCreate();
	rpmtsSetVSFlags(ts, _RPMVSF_NOSIGNATURES | _RPMVSF_NODIGESTS);
	fd = Fopen(argv[1], "r.ufdio");
	if (!fd || Ferror(fd)) {
		fprintf(stderr, "%s: cannot open\n", argv[1]);
		return 1;
	}
	rc = rpmReadPackageFile(ts, fd, argv[1], &h);
	Fclose(fd);
	rpmtsFree(ts);
	if (rc != RPMRC_OK && rc != RPMRC_NOKEY && rc != RPMRC_NOTTRUSTED) {
		fprintf(stderr, "%s: cannot read package\n", argv[1]);
		return 1;
	}
	blob = headerExport(h, &len);
	out = fopen(argv[2], "wb");
	if (!blob || !out || fwrite(blob, 1, len, out) != len ||
	    fclose(out) != 0) {
		fprintf(stderr, "%s: cannot write\n", argv[2]);
		return 1;
	}
	free(blob);
	headerFree(h);
	rpmFreeRpmrc();
	rpmFreeMacros(NULL);
	return 0;
}
