// SPDX-License-Identifier: MIT
/*
 * sign's IMA options: the IMA key (a PEM file or pkcs11: URI, through the
 * same signing_key interface as the fs-verity key, and possibly the same
 * key), its certificate and passphrase.
 */
#include <stdlib.h>
#include <string.h>
#include <openssl/crypto.h>
#include <rpm/rpmstring.h>

#include "cli.h"
#include "ima_sigs.h"

static char *imakeyopt, *imacertopt, *imapassfile;

struct poptOption ima_option_table[] = {
	{ "ima-key", 0, POPT_ARG_STRING, &imakeyopt, 0,
	  "also make IMA sigv3 signatures with this key: PEM file or pkcs11: URI",
	  "KEY" },
	{ "ima-cert", 0, POPT_ARG_STRING, &imacertopt, 0,
	  "the IMA key's certificate (its subject key id names the key)",
	  "CERT" },
	{ "ima-pass-file", 0, POPT_ARG_STRING, &imapassfile, 0,
	  "the IMA key's passphrase or PIN (default: %_file_signing_key_password)",
	  "FILE" },
	POPT_TABLEEND
};

void free_ima_options(void)
{
	free(imakeyopt);
	free(imacertopt);
	free(imapassfile);
	imakeyopt = imacertopt = imapassfile = NULL;
}

int load_ima_options(struct ima_key *ik)
{
	char *pass = NULL, *err = NULL;
	int rc = -1;

	memset(ik, 0, sizeof(*ik));
	if (!imakeyopt && !imacertopt && !imapassfile)
		return 0;
	if (!imakeyopt || !imacertopt) {
		report(rstrdup("IMA signatures need both --ima-key and --ima-cert"));
		return -1;
	}
	if (imapassfile)
		pass = read_passphrase(imapassfile);
	else
		pass = option_or_macro(NULL, "%{?_file_signing_key_password}");
	if (imapassfile && !pass)
		return -1;
	if (ima_key_load(ik, imakeyopt, imacertopt, pass, &err) == 0)
		rc = 1;
	else
		report(err);
	if (pass)
		OPENSSL_cleanse(pass, strlen(pass));
	free(pass);
	return rc;
}
