// SPDX-License-Identifier: GPL-2.0-only
/*
 * The enforcer's BPF LSM programs: a file runs (exec, the script of a #!
 * included), or is mapped executable, only if its fs-verity digest is the
 * one the installed packages signed for the path it is run from. The table
 * of bindings is filled from userspace (rpm-verity-enforcer, the plugin),
 * which verifies each signature against the trusted certificates before it
 * binds anything; these programs only compare. That needs no builtin
 * signature support in the kernel, only the BPF LSM, BTF and two kfuncs:
 * bpf_get_fsverity_digest (6.8) and bpf_path_d_path (6.12).
 *
 * One CO-RE object for every kernel from 6.12: the few kernel structures
 * read are declared below with preserve_access_index, and libbpf relocates
 * each field against the running kernel's BTF.
 *
 * GPL: the kfuncs and the LSM attach type are for GPL programs only.
 */
#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "enforcer_abi.h"

/* The kernel's own, as much of them as is read here. */
struct super_block {
	unsigned long s_magic;
} __attribute__((preserve_access_index));
struct inode {
	struct super_block *i_sb;
} __attribute__((preserve_access_index));
struct path {
	void *mnt;
	void *dentry;
} __attribute__((preserve_access_index));
struct file {
	struct path f_path;
	struct inode *f_inode;
} __attribute__((preserve_access_index));
struct linux_binprm {
	struct file *file;
} __attribute__((preserve_access_index));
struct vm_area_struct {
	unsigned long vm_flags;
	void *anon_vma;
	struct file *vm_file;
} __attribute__((preserve_access_index));

extern int bpf_get_fsverity_digest(struct file *file,
				   struct bpf_dynptr *digest_p) __ksym;
extern int bpf_path_d_path(const struct path *path, char *buf,
			   size_t buf__sz) __ksym;

#define EACCES 13
#define PROT_EXEC 0x4
#define VM_EXEC 0x4

char LICENSE[] SEC("license") = "GPL";

/* Set by the loader before the programs load, read-only after. */
const volatile __u32 enforce = 1;
/* Filesystems (s_magic) whose files are not judged: the site's choice. */
#define EXEMPT_MAX 8
const volatile __u64 exempt_magic[EXEMPT_MAX];
const volatile __u32 exempt_count;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 1 << 18);	/* the loader's --max-files */
	__type(key, struct enforcer_key);
	__type(value, struct enforcer_digest);
} bindings SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} events SEC(".maps");

/*
 * Where the kernel writes a file's digest: bpf_dynptr_from_mem() takes map
 * memory only, and memory of the task's own (not a per-CPU buffer, which a
 * preempted check on the same CPU could share) cannot mix two checks.
 */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct enforcer_digest);
} scratch SEC(".maps");

/* Counted whatever the log reader does: refusals (or warnings) and checks. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} counters SEC(".maps");

static __always_inline void count(__u32 which)
{
	__u64 *n = bpf_map_lookup_elem(&counters, &which);

	if (n)
		(*n)++;
}

static __always_inline bool exempt(struct file *file)
{
	__u64 magic = file->f_inode->i_sb->s_magic;

	for (__u32 i = 0; i < EXEMPT_MAX; i++)
		if (i < exempt_count && exempt_magic[i] == magic)
			return true;
	return false;
}

/* Every byte compared, one branch at the end (the verifier follows each). */
static __always_inline bool same_digest(const struct enforcer_digest *a,
					const struct enforcer_digest *b)
{
	__u32 diff = (a->alg ^ b->alg) | (a->size ^ b->size);

	for (int i = 0; i < ENFORCER_DIGEST_MAX; i++)
		diff |= a->bytes[i] ^ b->bytes[i];
	return diff == 0;
}

static __always_inline int refuse(int hook, int reason,
				  const struct enforcer_key *key,
				  const struct enforcer_digest *found,
				  const struct enforcer_digest *expected)
{
	struct enforcer_event *e;

	count(1);
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (e) {
		e->hook = hook;
		e->reason = reason;
		e->pid = bpf_get_current_pid_tgid() >> 32;
		e->enforced = enforce;
		bpf_get_current_comm(e->comm, sizeof(e->comm));
		__builtin_memcpy(&e->found, found, sizeof(e->found));
		if (expected)
			__builtin_memcpy(&e->expected, expected,
					 sizeof(e->expected));
		else
			__builtin_memset(&e->expected, 0, sizeof(e->expected));
		__builtin_memcpy(e->path, key->path, sizeof(e->path));
		bpf_ringbuf_submit(e, 0);
	}
	return enforce ? -EACCES : 0;
}

/*
 * The one decision: is @file the content signed for the path it was
 * reached by? The path and the digest compared live on this program's
 * stack (about 350 of its 512 bytes), never in a shared map, so two checks
 * on one CPU cannot mix.
 */
static __always_inline int judge(struct file *file, int hook)
{
	struct enforcer_key key;
	struct enforcer_digest found;
	struct enforcer_digest *expected, *d;
	struct bpf_dynptr dp;
	int n;

	if (exempt(file))
		return 0;
	count(0);
	__builtin_memset(&key, 0, sizeof(key));
	__builtin_memset(&found, 0, sizeof(found));
	n = bpf_path_d_path(&file->f_path, key.path, sizeof(key.path));
	if (n <= 0 || n > ENFORCER_PATH_MAX)
		return refuse(hook, ENFORCER_NO_PATH, &key, &found, NULL);
	/*
	 * d_path leaves bytes of its work behind the string: clear them with
	 * arithmetic, not a branch per byte, which the verifier would follow
	 * each way: (u64)(i - n) has its top bit set exactly while i < n.
	 */
	for (__u64 i = 0; i < ENFORCER_PATH_MAX; i++) {
		__u64 d = i - (__u64)n;

		asm volatile("" : "+r"(d));	/* or clang makes it a branch */
		key.path[i] &= (char)-(d >> 63);
	}
	d = bpf_task_storage_get(&scratch, bpf_get_current_task_btf(), 0,
				 BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!d)
		return refuse(hook, ENFORCER_NO_MEMORY, &key, &found, NULL);
	bpf_dynptr_from_mem(d, sizeof(*d), 0, &dp);
	if (bpf_get_fsverity_digest(file, &dp) != 0)
		return refuse(hook, ENFORCER_NO_VERITY, &key, &found,
			      bpf_map_lookup_elem(&bindings, &key));
	__builtin_memcpy(&found, d, sizeof(found));
	expected = bpf_map_lookup_elem(&bindings, &key);
	if (!expected)
		return refuse(hook, ENFORCER_UNBOUND, &key, &found, NULL);
	if (!same_digest(&found, expected))
		return refuse(hook, ENFORCER_WRONG_DIGEST, &key, &found,
			      expected);
	return 0;
}

/* Every file exec runs: the binary, a #! script and then its interpreter. */
SEC("lsm/bprm_check_security")
int BPF_PROG(verity_exec, struct linux_binprm *bprm, int ret)
{
	if (ret)
		return ret;
	return judge(bprm->file, ENFORCER_EXEC);
}

/* A file mapped executable: ld.so loading a library, dlopen. */
SEC("lsm/mmap_file")
int BPF_PROG(verity_mmap, struct file *file, unsigned long reqprot,
	     unsigned long prot, unsigned long flags, int ret)
{
	if (ret)
		return ret;
	if (!file || !(prot & PROT_EXEC))
		return 0;	/* anonymous memory is not a file's to judge */
	return judge(file, ENFORCER_MMAP);
}

/* The file of a file mapping that mprotect makes executable, else NULL. */
static __always_inline struct file *gains_exec(struct vm_area_struct *vma,
					       unsigned long prot)
{
	if (!(prot & PROT_EXEC) || (vma->vm_flags & VM_EXEC))
		return NULL;
	return vma->vm_file;
}

/*
 * A mapping made executable after the fact. A private file mapping that
 * has been written to (it has anonymous pages: SELinux's execmod) holds
 * bytes no signature covers, whatever file it came from.
 */
SEC("lsm/file_mprotect")
int BPF_PROG(verity_mprotect, struct vm_area_struct *vma,
	     unsigned long reqprot, unsigned long prot, int ret)
{
	struct file *file = ret ? NULL : gains_exec(vma, prot);

	if (!file)
		return ret;
	if (vma->anon_vma && !exempt(file)) {
		struct enforcer_key key;
		struct enforcer_digest none;

		__builtin_memset(&key, 0, sizeof(key));
		__builtin_memset(&none, 0, sizeof(none));
		bpf_path_d_path(&file->f_path, key.path, sizeof(key.path) - 1);
		return refuse(ENFORCER_MPROTECT, ENFORCER_WRITTEN, &key,
			      &none, NULL);
	}
	return judge(file, ENFORCER_MPROTECT);
}

/*
 * The same hook where the verifier does not trust vma->vm_file (6.12), so
 * the mapping's file can be neither named nor measured: a file mapping that
 * gains PROT_EXEC is refused outright (ld.so maps code executable with
 * mmap, which verity_mmap judges, and never needs this). The loader picks
 * this program only when verity_mprotect does not load.
 */
SEC("lsm/file_mprotect")
int BPF_PROG(verity_mprotect_strict, struct vm_area_struct *vma,
	     unsigned long reqprot, unsigned long prot, int ret)
{
	struct file *file = ret ? NULL : gains_exec(vma, prot);
	struct enforcer_key key;
	struct enforcer_digest none;

	if (!file || exempt(file))
		return ret;
	__builtin_memset(&key, 0, sizeof(key));
	__builtin_memset(&none, 0, sizeof(none));
	return refuse(ENFORCER_MPROTECT, ENFORCER_UNJUDGED, &key, &none, NULL);
}
