/* SPDX-License-Identifier: MIT */
/*
 * What the enforcer's BPF programs (verity_enforcer.bpf.c) and the
 * programs that fill its table and read its log share: the layout of a
 * binding (an installed path and the fs-verity digest its package signed)
 * and of a log record. One header for both sides, so they cannot disagree
 * on a byte; it includes nothing, as BPF code cannot take libc's headers.
 */
#ifndef RPMVERITY_ENFORCER_ABI_H
#define RPMVERITY_ENFORCER_ABI_H

/*
 * The key: the path as the kernel's d_path() gives it to the process that
 * runs the file, NUL-padded. A path of this length or more cannot be bound,
 * so a file there never runs under enforce.
 */
#define ENFORCER_PATH_MAX 256
/* SHA-512, the largest digest fs-verity makes. */
#define ENFORCER_DIGEST_MAX 64

struct enforcer_key {
	char path[ENFORCER_PATH_MAX];
};

/* The digest as struct fsverity_digest has it: algorithm 1 SHA-256, 2 SHA-512. */
struct enforcer_digest {
	unsigned short alg;
	unsigned short size;
	unsigned char bytes[ENFORCER_DIGEST_MAX];
};

/* Which hook judged. */
enum enforcer_hook {
	ENFORCER_EXEC = 1,	/* bprm_check_security: a binary or #! script */
	ENFORCER_MMAP = 2,	/* mmap_file with PROT_EXEC */
	ENFORCER_MPROTECT = 3,	/* file_mprotect adding PROT_EXEC */
};

/* Why a file was judged not to be its path's signed content. */
enum enforcer_reason {
	ENFORCER_UNBOUND = 1,	/* no installed package lists this path */
	ENFORCER_NO_VERITY = 2,	/* the file has no fs-verity digest */
	ENFORCER_WRONG_DIGEST = 3, /* not the digest signed for the path */
	ENFORCER_NO_PATH = 4,	/* d_path failed (too long, or unreachable) */
	ENFORCER_WRITTEN = 5,	/* a private mapping written to, then made executable */
	ENFORCER_NO_MEMORY = 6,	/* no memory to measure it in: fail closed */
	ENFORCER_UNJUDGED = 7,	/* this kernel cannot name the file: refused */
};

struct enforcer_event {
	unsigned int hook;	/* enum enforcer_hook */
	unsigned int reason;	/* enum enforcer_reason */
	unsigned int pid;
	unsigned int enforced;	/* 1: refused (EACCES), 0: warn mode, allowed */
	char comm[16];
	struct enforcer_digest found;	/* size 0: none */
	struct enforcer_digest expected;	/* size 0: the path is unbound */
	char path[ENFORCER_PATH_MAX];
};

#endif
