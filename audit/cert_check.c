// SPDX-License-Identifier: MIT
/*
 * --unowned reads the certificates only to name the package whose signed
 * content a file is, when such a file turns up (audit_unowned.c), and
 * OpenSSL's first certificate (its decoders, its configuration) was a
 * large part of a clean scan. So each --cert is checked here without
 * OpenSSL: it can be read and looks like one (a DER SEQUENCE, or a PEM
 * certificate block). A wrong file is then refused at the start even when
 * a clean scan would not use it.
 */
#include "scan.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

int audit_cert_file_check(const char *path, char **why)
{
	static const char pem[] = "-----BEGIN CERTIFICATE-----";
	char buf[4096];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t len = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	int saved = errno;

	if (fd >= 0)
		close(fd);
	if (len < 0) {
		*why = xasprintf("%s: cannot read certificate: %s", path,
				 strerror(saved));
		return -1;
	}
	buf[len] = '\0';
	if (!(len > 0 && (unsigned char)buf[0] == 0x30) &&
	    !memmem(buf, (size_t)len, pem, sizeof(pem) - 1)) {
		*why = xasprintf("%s: not a certificate (neither DER nor PEM)",
				 path);
		return -1;
	}
	return 0;
}
