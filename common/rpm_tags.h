/* SPDX-License-Identifier: MIT */
/*
 * rpm tags by number where their names differ between the rpm versions we
 * build against (4.18 to 6.x), or exist only in newer ones. Packages carry
 * numbers; these stay the same whatever a given rpm's rpmtag.h calls them.
 * With them, the limits rpm sets on a header.
 */
#ifndef RPMVERITY_RPM_TAGS_H
#define RPMVERITY_RPM_TAGS_H

/* Main header: digests and size of the compressed payload. */
#define RV_TAG_PAYLOAD_SHA256	5092	/* s[]: hex; 4.18 PAYLOADDIGEST, 6 PAYLOADSHA256 */
#define RV_TAG_PAYLOAD_ALGO	5093	/* i: its rpm hash algorithm; v6 packages
					   have none, and rpm 6 then reads SHA-256 */
#define RV_TAG_PAYLOAD_SIZE	5112	/* l: bytes of compressed payload (v6) */
#define RV_TAG_PAYLOAD_SHA512	5121	/* s: hex (v6) */
#define RV_TAG_PAYLOAD_SHA3_256	5123	/* s: hex (v6) */
#define RV_TAG_RPMFORMAT	5114	/* i: the package format, 6 for v6 */

/* Signature header, new in v6 packages. */
#define RV_SIGTAG_OPENPGP	278	/* s[]: OpenPGP signatures */
#define RV_SIGTAG_SHA3_256	279	/* s: hex SHA3-256 of the main header */
#define RV_SIGTAG_RESERVED	999	/* bin: space kept for signatures (1008 before v6) */

/*
 * rpm's limits on a main header, as its reader checks them: tags in the
 * index, and bytes of data. The package reader and the rpmdb's blob reader
 * refuse more.
 */
#define RV_HEADER_MAX_TAGS	0xffffu
#define RV_HEADER_MAX_DATA	0x0fffffffu

/* rpm's hash algorithm numbers (PGPHASHALGO_*), 4.18 to 6.x. */
#define RV_HASHALGO_SHA256	8
#define RV_HASHALGO_SHA512	10
#define RV_HASHALGO_SHA3_256	12

#endif
