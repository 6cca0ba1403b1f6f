// SPDX-License-Identifier: MIT
/*
 * The paths installed packages own, for audit --unowned. The walk meets
 * files by directory and name, never by the path rpm wrote: /bin/sh listed
 * through a /bin -> usr/bin symlink is met as /usr/bin/sh. So each listed
 * directory is resolved under the root once (audit_open.c's rules) and a
 * listed path is remembered as (device, directory inode, name). Inodes of
 * the files themselves are never used: a hard link at another path is
 * exactly what the scan must report.
 */
#include "scan.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <rpm/rpmstring.h>

struct dir_id {
	bool found;
	dev_t dev;
	ino_t ino;
};

struct audit_owned {
	struct audit_root *root;
	struct audit_keymap *paths;	/* dev, ino, name -> (void *)1 */
	struct audit_keymap *dirs;	/* listed directory -> struct dir_id */
	dev_t *devs;
	size_t ndevs;
};

struct audit_owned *audit_owned_new(struct audit_root *r)
{
	struct audit_owned *o = rcalloc(1, sizeof(*o));

	o->root = r;
	o->paths = audit_keymap_new(NULL);
	o->dirs = audit_keymap_new(free);
	return o;
}

void audit_owned_free(struct audit_owned *o)
{
	if (!o)
		return;
	audit_keymap_free(o->paths);
	audit_keymap_free(o->dirs);
	free(o->devs);
	free(o);
}

static const struct dir_id *dir_of(struct audit_owned *o, const char *dir)
{
	struct dir_id *id = audit_keymap_get(o->dirs, dir, strlen(dir));
	struct stat st;
	int fd;

	if (id)
		return id;
	id = rcalloc(1, sizeof(*id));
	fd = audit_root_opendir(o->root, dir);
	if (fd >= 0 && fstat(fd, &st) == 0) {
		id->found = true;
		id->dev = st.st_dev;
		id->ino = st.st_ino;
	}
	if (fd >= 0)
		close(fd);
	audit_keymap_add(o->dirs, dir, strlen(dir), id);
	return id;
}

/*
 * The key: device and inode as fixed-width numbers, then the name. 0 for
 * a name no directory can hold.
 */
#define KEY_MAX (2 * sizeof(uint64_t) + NAME_MAX)
static size_t path_key(dev_t dev, ino_t ino, const char *name,
		       uint8_t key[KEY_MAX])
{
	uint64_t ids[2] = { (uint64_t)dev, (uint64_t)ino };
	size_t len = strlen(name);

	if (len > NAME_MAX)
		return 0;
	memcpy(key, ids, sizeof(ids));
	memcpy(key + sizeof(ids), name, len);
	return sizeof(ids) + len;
}

static void add_dev(struct audit_owned *o, dev_t dev)
{
	for (size_t i = 0; i < o->ndevs; i++)
		if (o->devs[i] == dev)
			return;
	o->devs = rrealloc(o->devs, (o->ndevs + 1) * sizeof(*o->devs));
	o->devs[o->ndevs++] = dev;
}

void audit_owned_add(struct audit_owned *o, const char *dir,
		     const char *base, mode_t mode)
{
	const struct dir_id *id = dir_of(o, dir);
	uint8_t key[KEY_MAX];
	size_t len;

	if (!id->found)
		return;		/* nothing can be met there */
	len = path_key(id->dev, id->ino, base, key);
	if (len)
		audit_keymap_add(o->paths, key, len, (void *)1);
	if (S_ISREG(mode))
		add_dev(o, id->dev);
}

void audit_owned_add_fn(void *owned, const char *dir, const char *base,
			uint16_t mode)
{
	audit_owned_add(owned, dir, base, mode);
}

bool audit_owned_has(const struct audit_owned *o, dev_t dev, ino_t ino,
		     const char *name)
{
	uint8_t key[KEY_MAX];
	size_t len = path_key(dev, ino, name, key);

	return len && audit_keymap_get(o->paths, key, len) != NULL;
}

const dev_t *audit_owned_devs(const struct audit_owned *o, size_t *n)
{
	*n = o->ndevs;
	return o->devs;
}
