/* SPDX-License-Identifier: MIT */
/*
 * The transaction plugin ABI, from one place: rpm's own public rpmplugin.h
 * where the rpm we build against installs it (4.20 on), else our copy of
 * the 4.18 one. Both declare the same 12 hooks in the same order;
 * tests/plugin/hook_slots.sh checks the order against the rpm that runs us.
 */
#ifndef RPMVERITY_RPM_PLUGIN_API_H
#define RPMVERITY_RPM_PLUGIN_API_H

#ifdef RPMVERITY_HAVE_RPMPLUGIN_H
#include <rpm/rpmplugin.h>
#else
#include "rpmplugin_418.h"
#endif

#endif
