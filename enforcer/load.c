// SPDX-License-Identifier: MIT
/*
 * Loading the enforcer: the BPF object (built into this program as a
 * libbpf skeleton) is configured and loaded, its table filled from the
 * rpmdb, and only then attached, so that no exec ever meets an empty
 * table under enforce. Maps and links are pinned under ENFORCER_PIN_DIR:
 * the programs stay attached after this process exits, and the plugin
 * finds the table there.
 */
#include "enforcer.h"
#include "enforcer_abi.h"
#include "enforcer_table.h"
#include "verity_enforcer.skel.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#define PIN(name) ENFORCER_PIN_DIR "/" name

/* A first load that may fail for a known reason says nothing. */
static bool trying;

__attribute__((format(printf, 2, 0)))
static int libbpf_quiet(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	/* The verifier's log on a failed load is the one thing worth seeing. */
	return level == LIBBPF_WARN && !trying ? vfprintf(stderr, fmt, ap) : 0;
}

/*
 * Pin every link and map, or none: a half-pinned enforcer would keep some
 * hooks attached that no `status` or `load` sees as loaded.
 */
static int pin_all(struct verity_enforcer_bpf *s)
{
	struct { struct bpf_link *link; const char *path; } links[] = {
		{ s->links.verity_exec, PIN("exec") },
		{ s->links.verity_mmap, PIN("mmap") },
		{ s->links.verity_mprotect ? s->links.verity_mprotect :
		  s->links.verity_mprotect_strict, PIN("mprotect") },
	};
	struct { struct bpf_map *map; const char *path; } maps[] = {
		{ s->maps.bindings, PIN("bindings") },
		{ s->maps.events, PIN("events") },
		{ s->maps.counters, PIN("counters") },
		{ s->maps.rodata, PIN("config") },
	};

	size_t nm = sizeof(maps) / sizeof(maps[0]);
	size_t nl = sizeof(links) / sizeof(links[0]);
	int rc = 0;

	for (size_t i = 0; !rc && i < nm; i++)
		if (bpf_map__pin(maps[i].map, maps[i].path))
			rc = -errno;
	for (size_t i = 0; !rc && i < nl; i++)
		if (bpf_link__pin(links[i].link, links[i].path))
			rc = -errno;
	if (rc) {
		for (size_t i = 0; i < nm; i++)
			unlink(maps[i].path);
		for (size_t i = 0; i < nl; i++)
			unlink(links[i].path);
		rmdir(ENFORCER_PIN_DIR);
	}
	return rc;
}

/* The object opened and configured, with one of the two mprotect programs. */
static struct verity_enforcer_bpf *open_configured(const struct load_opts *o,
						   bool strict_mprotect)
{
	struct verity_enforcer_bpf *s = verity_enforcer_bpf__open();

	if (!s)
		return NULL;
	s->rodata->enforce = !o->warn;
	for (unsigned int i = 0; i < o->nexempt; i++)
		s->rodata->exempt_magic[i] = o->exempt[i];
	s->rodata->exempt_count = o->nexempt;
	/* The hash table's buckets cost 16 bytes per file it can hold. */
	if (o->max_files)
		bpf_map__set_max_entries(s->maps.bindings, o->max_files);
	bpf_program__set_autoload(s->progs.verity_mprotect, !strict_mprotect);
	bpf_program__set_autoload(s->progs.verity_mprotect_strict, strict_mprotect);
	return s;
}

int enforcer_load(const struct load_opts *o)
{
	struct verity_enforcer_bpf *s;
	unsigned long bound = 0, refused = 0;
	struct stat st;
	int rc;

	libbpf_set_print(libbpf_quiet);
	if (o->dry_run) {
		rc = enforcer_bind_rpmdb(-1, o, &bound, &refused);
		printf("rpm-verity-enforcer: would bind %lu files, %lu not (above)\n",
		       bound, refused);
		return rc ? 2 : 0;
	}
	if (stat(ENFORCER_PIN_DIR, &st) == 0) {
		fprintf(stderr, "rpm-verity-enforcer: already loaded (%s exists)\n",
			ENFORCER_PIN_DIR);
		return 1;
	}
	s = open_configured(o, false);
	trying = true;
	rc = s ? verity_enforcer_bpf__load(s) : -errno;
	trying = false;
	if (rc && s) {
		/* 6.12: the mapping's file is not trusted; refuse instead. */
		verity_enforcer_bpf__destroy(s);
		s = open_configured(o, true);
		rc = s ? verity_enforcer_bpf__load(s) : -errno;
		if (!rc)
			fprintf(stderr, "rpm-verity-enforcer: this kernel cannot name the file of a mapping, so mprotect making any file mapping executable is refused\n");
	}
	if (!s) {
		fprintf(stderr, "rpm-verity-enforcer: cannot open the BPF object: %s\n",
			strerror(-rc));
		return 2;
	}
	if (rc) {
		fprintf(stderr, "rpm-verity-enforcer: the kernel refused the programs: %s (it needs the BPF LSM with BTF, \"bpf\" in its LSM list, and Linux 6.12 or later)\n",
			strerror(-rc));
		rc = 2;
		goto out;
	}
	/* An empty table would refuse every program: a wrong --root, say. */
	if (enforcer_bind_rpmdb(bpf_map__fd(s->maps.bindings), o, &bound,
				&refused) != 0 || !bound) {
		fprintf(stderr, "rpm-verity-enforcer: %lu files bound (%s); not attaching\n",
			bound, bound ? "the rpmdb could not be read" :
			"no installed package has a file with a trusted signature");
		rc = 2;
		goto out;
	}
	rc = verity_enforcer_bpf__attach(s);
	if (rc) {
		fprintf(stderr, "rpm-verity-enforcer: attaching to the LSM hooks failed: %s (is \"bpf\" in the kernel's LSM list, lsm=...,bpf?)\n",
			strerror(-rc));
		rc = 2;
		goto out;
	}
	if (mkdir(ENFORCER_PIN_DIR, 0700) != 0 || (rc = pin_all(s)) != 0) {
		fprintf(stderr, "rpm-verity-enforcer: pinning under %s failed: %s (is bpffs mounted on /sys/fs/bpf?)\n",
			ENFORCER_PIN_DIR, strerror(rc ? -rc : errno));
		rc = 2;
		goto out;
	}
	if (!o->quiet)
		printf("rpm-verity-enforcer: %s: %lu files bound, %lu not (above)\n",
		       o->warn ? "warn" : "enforce", bound, refused);
	rc = 0;
out:
	/* Pinned links and maps outlive the skeleton. */
	verity_enforcer_bpf__destroy(s);
	return rc;
}

/* The kernel memory the table is charged (its fdinfo's memlock), or 0. */
static unsigned long long table_memory(int fd)
{
	char path[64], line[128];
	unsigned long long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "memlock: %llu", &v) == 1)
			break;
	if (f)
		fclose(f);
	return v;
}

int enforcer_status(void)
{
	int table = enforcer_table_open(), counters, config;
	struct enforcer_key key, next;
	struct verity_enforcer_bpf__rodata cfg;
	unsigned long long sum[2] = { 0 };
	unsigned long n = 0;
	int ncpu = libbpf_num_possible_cpus();
	unsigned long long *per = calloc(ncpu > 0 ? (size_t)ncpu : 1, sizeof(*per));

	if (table < 0 || !per) {
		free(per);
		printf("not loaded\n");
		return 3;
	}
	counters = bpf_obj_get(PIN("counters"));
	config = bpf_obj_get(PIN("config"));
	for (void *k = NULL; !bpf_map_get_next_key(table, k, &next); k = &key) {
		key = next;
		n++;
	}
	for (unsigned int i = 0; counters >= 0 && i < 2; i++)
		if (!bpf_map_lookup_elem(counters, &i, per))
			for (int c = 0; c < ncpu; c++)
				sum[i] += per[c];
	if (config >= 0 && !bpf_map_lookup_elem(config, &(int){ 0 }, &cfg))
		printf("mode: %s\n", cfg.enforce ? "enforce" : "warn");
	printf("bound: %lu\nchecked: %llu\nrefused: %llu\n", n, sum[0], sum[1]);
	printf("memory: %llu bytes\n", table_memory(table));
	free(per);
	return 0;
}
