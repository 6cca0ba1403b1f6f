/* SPDX-License-Identifier: MIT */
/*
 * The transaction plugin ABI of librpm 4.18, declared here because
 * librpm-dev 4.18 does not install rpm's own rpmplugin.h (it became public
 * only in rpm 4.20). rpm finds our table with dlsym("verity_hooks") and calls
 * its members by position, so the order of the members below is the ABI:
 * tests/plugin/hook_slots.sh fails if it ever differs from what rpm calls.
 */
#ifndef RPMVERITY_RPMPLUGIN_418_H
#define RPMVERITY_RPMPLUGIN_418_H

#include <sys/types.h>

#include <rpm/rpmfi.h>
#include <rpm/rpmtypes.h>
/* rpmtypes.h already names rpmPlugin (struct rpmPlugin_s *). */

/* A file operation: the rpmFileAction in the low 16 bits, flags above. */
typedef rpmFlags rpmFsmOp;
#define XFA_MASK	0x0000ffffU
#define XFO_ACTION(op)	((op) & XFA_MASK)
#define FAF_UNOWNED	(1U << 31)	/* a directory no package owns */


struct rpmPluginHooks_s {
	rpmRC (*init)(rpmPlugin plugin, rpmts ts);
	void (*cleanup)(rpmPlugin plugin);
	rpmRC (*tsm_pre)(rpmPlugin plugin, rpmts ts);
	rpmRC (*tsm_post)(rpmPlugin plugin, rpmts ts, int res);
	rpmRC (*psm_pre)(rpmPlugin plugin, rpmte te);
	rpmRC (*psm_post)(rpmPlugin plugin, rpmte te, int res);
	rpmRC (*scriptlet_pre)(rpmPlugin plugin, const char *s_name, int type);
	rpmRC (*scriptlet_fork_post)(rpmPlugin plugin, const char *path,
				     int type);
	rpmRC (*scriptlet_post)(rpmPlugin plugin, const char *s_name, int type,
				int res);
	rpmRC (*fsm_file_pre)(rpmPlugin plugin, rpmfi fi, const char *path,
			      mode_t file_mode, rpmFsmOp op);
	rpmRC (*fsm_file_post)(rpmPlugin plugin, rpmfi fi, const char *path,
			       mode_t file_mode, rpmFsmOp op, int res);
	rpmRC (*fsm_file_prepare)(rpmPlugin plugin, rpmfi fi, int fd,
				  const char *path, const char *dest,
				  mode_t file_mode, rpmFsmOp op);
};

/* Exported by librpm.so.9, declared only in rpm's internal header. */
const char *rpmPluginName(rpmPlugin plugin);
const char *rpmPluginOpts(rpmPlugin plugin);
void rpmPluginSetData(rpmPlugin plugin, void *data);
void *rpmPluginGetData(rpmPlugin plugin);

#endif
