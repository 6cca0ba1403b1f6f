// SPDX-License-Identifier: MIT
/*
 * vsig-dump: prints, for every file of a package, what rpm 4.18 itself
 * hands an installing plugin through rpmfiVSignature(), so the tests can
 * check with rpm's own reader which files carry a signature and which get
 * "no signature" (NULL, zero length or an all-zero entry).
 * Output: "PATH<TAB>none" or "PATH<TAB>sig LEN ALGO", one line per file.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <rpm/header.h>
#include <rpm/rpmfi.h>
#include <rpm/rpmlib.h>
#include <rpm/rpmts.h>

static int all_zero(const unsigned char *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (p[i])
			return 0;
	return 1;
}

int main(int argc, char **argv)
{
	rpmts ts;
	FD_t fd;
	Header h = NULL;
	rpmfi fi;
	rpmRC rc;

	if (argc != 2) {
		fprintf(stderr, "usage: vsig-dump PACKAGE.rpm\n");
		return 2;
	}
	if (rpmReadConfigFiles(NULL, NULL) != 0)
		return 1;
	ts = rpmtsCreate();
	rpmtsSetVSFlags(ts, RPMVSF_MASK_NOSIGNATURES);
	fd = Fopen(argv[1], "r.ufdio");
	if (!fd || Ferror(fd)) {
		fprintf(stderr, "vsig-dump: %s: cannot open\n", argv[1]);
		return 1;
	}
	rc = rpmReadPackageFile(ts, fd, argv[1], &h);
	Fclose(fd);
	if (rc != RPMRC_OK && rc != RPMRC_NOKEY && rc != RPMRC_NOTTRUSTED) {
		fprintf(stderr, "vsig-dump: %s: rpm cannot read it\n", argv[1]);
		return 1;
	}
	fi = rpmfiNew(ts, h, RPMTAG_BASENAMES, RPMFI_FLAGS_INSTALL);
	while (rpmfiNext(fi) >= 0) {
		size_t len = 0;
		uint16_t algo = 0;
		const unsigned char *sig = rpmfiVSignature(fi, &len, &algo);

		if (!sig || len == 0 || all_zero(sig, len))
			printf("%s\tnone\n", rpmfiFN(fi));
		else
			printf("%s\tsig %zu %u\n", rpmfiFN(fi), len, algo);
	}
	rpmfiFree(fi);
	headerFree(h);
	rpmtsFree(ts);
	return 0;
}
