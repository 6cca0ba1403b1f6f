// SPDX-License-Identifier: MIT
/*
 * Compiled into every target with a source that includes an rpm header
 * (common/rpm_headers.cmake adds it), with that target's own flags, so the
 * build fails where a target would take its rpm headers from another rpm
 * than the one CMake selected: the system's /usr/include/rpm beside an
 * upstream rpm's librpm (RPMVERITY_RPM_PREFIX), say, whose types, tags and
 * flags are not the same.
 *
 * rpm's headers define no version macro (RPMVERSION is a variable in
 * librpm), so their series is read from a macro each one first defined:
 * RPMTAG_NOT_FOUND (4.19), RPMEXPAND_KEEP_QUOTED (4.20), HEADER_SIGTOP
 * (6.0); 4.18 has none of them and still RPMLOG_FAC, which 4.19 removed.
 * CMake passes the series of the rpm it selected as RPMVERITY_RPM_SERIES
 * with the rest of that rpm's flags (PkgConfig::RPM).
 */
#include <rpm/rpmlog.h>
#include <rpm/rpmmacro.h>
#include <rpm/rpmtag.h>

#if defined(HEADER_SIGTOP)
#define HEADERS_SERIES 600
#elif defined(RPMEXPAND_KEEP_QUOTED)
#define HEADERS_SERIES 420
#elif defined(RPMTAG_NOT_FOUND)
#define HEADERS_SERIES 419
#elif defined(RPMLOG_FAC)
#define HEADERS_SERIES 418
#else
#error "rpm headers of a series this check does not know (rpm_headers_check.c)"
#endif

#ifndef RPMVERITY_RPM_SERIES
#error "this target includes rpm headers without the selected rpm's flags: link it with PkgConfig::RPM"
#elif HEADERS_SERIES != RPMVERITY_RPM_SERIES
#if HEADERS_SERIES == 418
#error "this target finds rpm 4.18's headers first, not those of the rpm CMake selected"
#elif HEADERS_SERIES == 419
#error "this target finds rpm 4.19's headers first, not those of the rpm CMake selected"
#elif HEADERS_SERIES == 420
#error "this target finds rpm 4.20's headers first, not those of the rpm CMake selected"
#else
#error "this target finds rpm 6's headers first, not those of the rpm CMake selected"
#endif
#endif
