// SPDX-License-Identifier: MIT
/*
 * PKCS#11 keys through libp11. libp11's OpenSSL engine would load the same
 * key from the same URI, but it reports a wrong PIN, a missing token and a
 * missing object alike as "cannot load key"; walking the slots ourselves
 * lets each failure say what is wrong. The EVP_PKEY libp11 hands back is
 * used by OpenSSL's PKCS#7 code like a key read from a file, so the
 * signatures are the same bytes (RSA PKCS#1 v1.5 is deterministic).
 *
 * Keys from one module share one libp11 context: a second context on the
 * same module opens its session with C_CloseAllSessions on the slot, which
 * would close the first key's session and log the token out (seen with
 * --key and --ima-key naming the same token).
 */
#include "pkcs11_key.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libp11.h>
#include <openssl/err.h>
#include <openssl/crypto.h>
#include <rpm/rpmstring.h>

#define DEFAULT_MODULE	"p11-kit-proxy.so"
#define MAX_ID		128

/* PKCS#11 return values libp11 passes on as OpenSSL error reasons. */
#define CKR_PIN_INCORRECT	0xa0
#define CKR_PIN_INVALID		0xa1
#define CKR_PIN_LEN_RANGE	0xa2
#define CKR_PIN_EXPIRED		0xa3
#define CKR_PIN_LOCKED		0xa4

struct pkcs11_module {
	char *path;
	PKCS11_CTX *ctx;
	PKCS11_SLOT *slots;
	unsigned int nslots;
	int loaded;		/* libp11 crashes unloading a module that failed */
	int refs;
	pthread_mutex_t lock;	/* see pkcs11_key_lock */
	struct pkcs11_module *next;
};

/* Loaded modules; keys are loaded (and freed) by the main thread only. */
static struct pkcs11_module *modules;

struct pkcs11_key {
	struct pkcs11_module *mod;
	EVP_PKEY *pkey;
};

/* What a URI asks for; strings are percent-decoded and malloc'ed. */
struct pkcs11_uri {
	char *token, *object, *serial, *manufacturer, *model, *type;
	char *pin_value, *pin_source, *module_path;
	unsigned char id[MAX_ID];
	size_t id_len;
	int has_id;
};

bool is_pkcs11_uri(const char *name)
{
	return name && strncmp(name, "pkcs11:", 7) == 0;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Percent-decode [@s, @s + @len) into a string; NULL if malformed. */
static char *pct_decode(const char *s, size_t len, size_t *outlen)
{
	char *out = malloc(len + 1);
	size_t n = 0;

	if (!out)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		if (s[i] != '%') {
			out[n++] = s[i];
			continue;
		}
		if (i + 2 >= len || hexval(s[i + 1]) < 0 ||
		    hexval(s[i + 2]) < 0) {
			free(out);
			return NULL;
		}
		out[n++] = (char)(hexval(s[i + 1]) << 4 | hexval(s[i + 2]));
		i += 2;
	}
	out[n] = '\0';
	if (outlen)
		*outlen = n;
	return out;
}

static void uri_free(struct pkcs11_uri *u)
{
	free(u->token);
	free(u->object);
	free(u->serial);
	free(u->manufacturer);
	free(u->model);
	free(u->type);
	if (u->pin_value)
		OPENSSL_cleanse(u->pin_value, strlen(u->pin_value));
	free(u->pin_value);
	free(u->pin_source);
	free(u->module_path);
}

/* One "name=value" attribute of the path (@query 0) or the query (1). */
static int uri_attr(struct pkcs11_uri *u, const char *a, size_t len, int query,
		    char **err)
{
	const char *eq = memchr(a, '=', len);
	size_t nlen, vlen;
	char **slot = NULL;
	char *val;

	if (!eq) {
		rasprintf(err, "attribute '%.*s' has no value", (int)len, a);
		return -1;
	}
	nlen = (size_t)(eq - a);
	val = pct_decode(eq + 1, len - nlen - 1, &vlen);
	if (!val) {
		rasprintf(err, "bad percent-encoding in '%.*s'", (int)nlen, a);
		return -1;
	}
#define IS(name) (nlen == strlen(name) && !memcmp(a, name, nlen))
	if (!query && IS("id")) {
		if (vlen > MAX_ID) {
			free(val);
			rasprintf(err, "id longer than %d bytes", MAX_ID);
			return -1;
		}
		memcpy(u->id, val, vlen);
		u->id_len = vlen;
		u->has_id = 1;
		free(val);
		return 0;
	}
	if (!query && IS("token"))
		slot = &u->token;
	else if (!query && IS("object"))
		slot = &u->object;
	else if (!query && IS("serial"))
		slot = &u->serial;
	else if (!query && IS("manufacturer"))
		slot = &u->manufacturer;
	else if (!query && IS("model"))
		slot = &u->model;
	else if (!query && IS("type"))
		slot = &u->type;
	else if (query && IS("pin-value"))
		slot = &u->pin_value;
	else if (query && IS("pin-source"))
		slot = &u->pin_source;
	else if (query && IS("module-path"))
		slot = &u->module_path;
#undef IS
	if (!slot) {
		/* RFC 7512: attributes a consumer does not know are ignored. */
		free(val);
		return 0;
	}
	free(*slot);
	*slot = val;
	return 0;
}

static int uri_parse(const char *uri, struct pkcs11_uri *u, char **err)
{
	const char *p = uri + 7, *q = strchr(p, '?');
	const char *end = q ? q : p + strlen(p);
	int query = 0;

	memset(u, 0, sizeof(*u));
	while (p < end || (!query && q)) {
		const char *sep;

		if (p >= end) {		/* on to the query */
			query = 1;
			p = q + 1;
			end = p + strlen(p);
			q = NULL;
			continue;
		}
		sep = memchr(p, query ? '&' : ';', (size_t)(end - p));
		if (!sep)
			sep = end;
		if (sep > p && uri_attr(u, p, (size_t)(sep - p), query, err)) {
			uri_free(u);
			return -1;
		}
		p = sep + (sep < end);
	}
	if (u->type && strcmp(u->type, "private") != 0) {
		rasprintf(err, "type=%s does not name a private key", u->type);
		uri_free(u);
		return -1;
	}
	if (!u->object && !u->has_id) {
		rasprintf(err, "no object= or id= to name the key");
		uri_free(u);
		return -1;
	}
	return 0;
}

char *pkcs11_uri_for_display(const char *uri)
{
	const char *pin = strstr(uri, "pin-value=");
	char *s = NULL;

	if (!pin)
		return rstrdup(uri);
	rasprintf(&s, "%.*spin-value=...%s", (int)(pin - uri), uri,
		  pin + strcspn(pin, "&"));
	return s;
}

/* The first line of @path (pin-source=file:...). */
static char *read_pin_file(const char *source, char **err)
{
	const char *path = strncmp(source, "file:", 5) ? source : source + 5;
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;

	if (!f) {
		rasprintf(err, "pin-source %s: %s", path, strerror(errno));
		return NULL;
	}
	if (getline(&line, &cap, f) < 0) {
		free(line);
		line = rstrdup("");
	}
	fclose(f);
	line[strcspn(line, "\r\n")] = '\0';
	return line;
}

static int field_ok(const char *want, const char *have)
{
	return !want || (have && strcmp(want, have) == 0);
}

static void module_put(struct pkcs11_module *m)
{
	struct pkcs11_module **pp;

	if (!m || --m->refs > 0)
		return;
	for (pp = &modules; *pp; pp = &(*pp)->next)
		if (*pp == m) {
			*pp = m->next;
			break;
		}
	if (m->slots)
		PKCS11_release_all_slots(m->ctx, m->slots, m->nslots);
	if (m->loaded)
		PKCS11_CTX_unload(m->ctx);
	if (m->ctx)
		PKCS11_CTX_free(m->ctx);
	pthread_mutex_destroy(&m->lock);
	free(m->path);
	free(m);
}

/* @path loaded, with its slots listed: shared, or new; NULL after *@err. */
static struct pkcs11_module *module_get(const char *path, const char *shown,
					char **err)
{
	struct pkcs11_module *m;

	for (m = modules; m; m = m->next)
		if (!strcmp(m->path, path)) {
			m->refs++;
			return m;
		}
	m = rcalloc(1, sizeof(*m));
	m->path = rstrdup(path);
	m->refs = 1;
	pthread_mutex_init(&m->lock, NULL);
	m->next = modules;
	modules = m;
	m->ctx = PKCS11_CTX_new();
	if (!m->ctx || PKCS11_CTX_load(m->ctx, path) != 0) {
		rasprintf(err, "%s: cannot load PKCS#11 module %s", shown, path);
		module_put(m);
		return NULL;
	}
	m->loaded = 1;
	if (PKCS11_enumerate_slots(m->ctx, &m->slots, &m->nslots) != 0) {
		rasprintf(err, "%s: cannot list the slots of %s", shown, path);
		module_put(m);
		return NULL;
	}
	return m;
}

static PKCS11_SLOT *find_slot(struct pkcs11_key *k, const struct pkcs11_uri *u,
			      char **tokens)
{
	for (unsigned int i = 0; i < k->mod->nslots; i++) {
		PKCS11_TOKEN *t = k->mod->slots[i].token;

		if (!t || !t->initialized)
			continue;
		*tokens = rstrscat(tokens, **tokens ? ", " : "", "\"",
				   t->label, "\"", NULL);
		if (field_ok(u->token, t->label) &&
		    field_ok(u->serial, t->serialnr) &&
		    field_ok(u->manufacturer, t->manufacturer) &&
		    field_ok(u->model, t->model))
			return &k->mod->slots[i];
	}
	return NULL;
}

static const char *login_failure(void)
{
	unsigned long e = ERR_peek_last_error();

	if (ERR_GET_LIB(e) != ERR_get_CKR_code())
		return "login failed";
	switch (ERR_GET_REASON(e)) {
	case CKR_PIN_INCORRECT:
	case CKR_PIN_INVALID:
	case CKR_PIN_LEN_RANGE:
		return "wrong PIN";
	case CKR_PIN_LOCKED:
		return "PIN locked (too many wrong attempts)";
	case CKR_PIN_EXPIRED:
		return "PIN expired";
	default:
		return "login failed";
	}
}

static PKCS11_KEY *find_key(PKCS11_TOKEN *token, const struct pkcs11_uri *u)
{
	PKCS11_KEY *keys = NULL;
	unsigned int n = 0;

	if (PKCS11_enumerate_keys(token, &keys, &n) != 0)
		return NULL;
	for (unsigned int i = 0; i < n; i++) {
		if (u->object && (!keys[i].label ||
				  strcmp(keys[i].label, u->object) != 0))
			continue;
		if (u->has_id && (keys[i].id_len != u->id_len ||
				  memcmp(keys[i].id, u->id, u->id_len) != 0))
			continue;
		return &keys[i];
	}
	return NULL;
}

static EVP_PKEY *open_key(struct pkcs11_key *k, const struct pkcs11_uri *u,
			  const char *pin, const char *shown, char **err)
{
	const char *module = u->module_path ? u->module_path : DEFAULT_MODULE;
	char *tokens = rstrdup("");
	PKCS11_SLOT *slot;
	PKCS11_KEY *key;
	int logged_in = 0;

	k->mod = module_get(module, shown, err);
	if (!k->mod)
		goto fail;
	slot = find_slot(k, u, &tokens);
	if (!slot) {
		rasprintf(err, "%s: no such token in %s (tokens present: %s)",
			  shown, module, *tokens ? tokens : "none");
		goto fail;
	}
	/* Another key on this token logged in already: its session stays. */
	if (slot->token->loginRequired &&
	    (PKCS11_is_logged_in(slot, 0, &logged_in) != 0 || !logged_in)) {
		if (!pin) {
			rasprintf(err, "%s: token \"%s\" needs a PIN: give pin-value= or pin-source= in the URI, or --pass-file",
				  shown, slot->token->label);
			goto fail;
		}
		if (PKCS11_open_session(slot, 0) != 0 ||
		    PKCS11_login(slot, 0, pin) != 0) {
			rasprintf(err, "%s: token \"%s\": %s", shown,
				  slot->token->label, login_failure());
			goto fail;
		}
	}
	key = find_key(slot->token, u);
	if (!key) {
		rasprintf(err, "%s: token \"%s\" has no private key %s%s",
			  shown, slot->token->label,
			  u->object ? "labelled " : "with the given id",
			  u->object ? u->object : "");
		goto fail;
	}
	k->pkey = PKCS11_get_private_key(key);
	if (!k->pkey) {
		rasprintf(err, "%s: cannot use the private key on token \"%s\"",
			  shown, slot->token->label);
		goto fail;
	}
	free(tokens);
	return k->pkey;
fail:
	free(tokens);
	return NULL;
}

EVP_PKEY *pkcs11_key_load(const char *uri, const char *pin,
			  struct pkcs11_key **handle, char **err)
{
	char *shown = pkcs11_uri_for_display(uri), *why = NULL, *filepin = NULL;
	struct pkcs11_uri u;
	struct pkcs11_key *k;
	EVP_PKEY *pkey = NULL;

	*handle = NULL;
	if (uri_parse(uri, &u, &why) != 0) {
		rasprintf(err, "%s: not a usable PKCS#11 URI: %s", shown, why);
		free(why);
		free(shown);
		return NULL;
	}
	if (u.pin_source && !(filepin = read_pin_file(u.pin_source, &why))) {
		rasprintf(err, "%s: %s", shown, why);
		free(why);
		goto out;
	}
	k = rcalloc(1, sizeof(*k));
	pkey = open_key(k, &u, u.pin_value ? u.pin_value :
			filepin ? filepin : pin, shown, err);
	if (pkey)
		*handle = k;
	else
		pkcs11_key_free(k);
out:
	if (filepin)
		OPENSSL_cleanse(filepin, strlen(filepin));
	free(filepin);
	uri_free(&u);
	free(shown);
	ERR_clear_error();
	return pkey;
}

void pkcs11_key_free(struct pkcs11_key *k)
{
	if (!k)
		return;
	EVP_PKEY_free(k->pkey);
	module_put(k->mod);
	free(k);
}

pthread_mutex_t *pkcs11_key_lock(struct pkcs11_key *k)
{
	return &k->mod->lock;
}
