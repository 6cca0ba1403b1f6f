// SPDX-License-Identifier: MIT
/*
 * A map from byte strings to values, for the unowned-file scan: the paths
 * packages own (as directory identity and name) and the signed content
 * that names a package file. Both are built once from the rpmdb and then
 * asked once per file of the walk, so lookups must cost a hash and a
 * compare. Open addressing, a power-of-two table kept at most half full.
 */
#include "scan.h"

#include <stdlib.h>
#include <string.h>
#include <rpm/rpmstring.h>

struct keymap_slot {
	uint8_t *key;
	size_t len;
	void *value;
};

struct audit_keymap {
	struct keymap_slot *slots;
	size_t cap, used;
	void (*free_value)(void *);
};

/*
 * Eight bytes a step: the keys are mostly DER signatures and IMA values of
 * a few hundred bytes, one per packaged file, hashed as the index is built
 * and again as it grows; a byte at a time that was most of the index's
 * cost. Each step multiplies the word in and folds the high half down,
 * since the table takes the low bits; the end mixes once more.
 */
uint64_t audit_hash_bytes(const uint8_t *b, size_t len)
{
	const uint64_t k = 0x9e3779b97f4a7c15ULL;
	uint64_t h = len * k, w;

	for (; len >= 8; b += 8, len -= 8) {
		memcpy(&w, b, 8);
		h = (h ^ w) * k;
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, b, len);
	h = (h ^ w) * k;
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ULL;
	return h ^ (h >> 32);
}

struct audit_keymap *audit_keymap_new(void (*free_value)(void *))
{
	struct audit_keymap *m = rcalloc(1, sizeof(*m));

	m->cap = 256;
	m->slots = rcalloc(m->cap, sizeof(*m->slots));
	m->free_value = free_value;
	return m;
}

void audit_keymap_free(struct audit_keymap *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->cap; i++) {
		free(m->slots[i].key);
		if (m->slots[i].key && m->free_value)
			m->free_value(m->slots[i].value);
	}
	free(m->slots);
	free(m);
}

static struct keymap_slot *find(struct keymap_slot *slots, size_t cap,
				const void *key, size_t len)
{
	size_t i = audit_hash_bytes(key, len) & (cap - 1);

	while (slots[i].key &&
	       (slots[i].len != len || memcmp(slots[i].key, key, len) != 0))
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

static void grow(struct audit_keymap *m)
{
	size_t cap = m->cap * 2;
	struct keymap_slot *slots = rcalloc(cap, sizeof(*slots));

	for (size_t i = 0; i < m->cap; i++)
		if (m->slots[i].key)
			*find(slots, cap, m->slots[i].key, m->slots[i].len) =
				m->slots[i];
	free(m->slots);
	m->slots = slots;
	m->cap = cap;
}

void *audit_keymap_get(const struct audit_keymap *m, const void *key,
		       size_t len)
{
	const struct keymap_slot *s = find(m->slots, m->cap, key, len);

	return s->key ? s->value : NULL;
}

bool audit_keymap_add(struct audit_keymap *m, const void *key, size_t len,
		      void *value)
{
	struct keymap_slot *s = find(m->slots, m->cap, key, len);

	if (s->key)
		return false;
	s->key = rmalloc(len ? len : 1);
	memcpy(s->key, key, len);
	s->len = len;
	s->value = value;
	if (++m->used * 2 > m->cap)
		grow(m);
	return true;
}

size_t audit_keymap_count(const struct audit_keymap *m)
{
	return m->used;
}
