// SPDX-License-Identifier: MIT
/*
 * What rpm-verity audit prints. Text: one line per problem, a short code
 * column then the path, as `rpm -V` does, so `awk '{print $2}'` gives the
 * paths; then one summary line. --json: one object per line (JSON Lines),
 * the summary last, for monitoring systems. --unowned prints the same
 * way, with the package file a signed file's content is, when known.
 */
#include "scan.h"

#include <string.h>

static const char *const codes[AUDIT_NPROBLEMS] = {
	[AUDIT_MISSING] = "missing",
	[AUDIT_UNREADABLE] = "unreadable",
	[AUDIT_VERITY_OFF] = "verity-off",
	[AUDIT_UNTRUSTED] = "untrusted",
	[AUDIT_DIGEST] = "digest-mismatch",
	[AUDIT_SIG_DIFFERS] = "signature-differs",
	[AUDIT_IMA] = "ima-mismatch",
	[AUDIT_UNOWNED] = "unowned",
};

const char *audit_problem_code(enum audit_problem p)
{
	return codes[p];
}

static void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(out, "\\%c", ch);
		else if (ch < 0x20 || ch == 0x7f)
			fprintf(out, "\\u%04x", ch);
		else
			fputc(ch, out);	/* UTF-8 passes through */
	}
	fputc('"', out);
}

static void json_line(FILE *out, const char *kind, const char *nevra,
		      const char *path, const char *detail)
{
	fputs("{\"problem\":", out);
	json_string(out, kind);
	fputs(",\"path\":", out);
	json_string(out, path);
	fputs(",\"package\":", out);
	json_string(out, nevra);
	if (detail) {
		fputs(",\"detail\":", out);
		json_string(out, detail);
	}
	fputs("}\n", out);
}

void audit_report_problem(struct audit_report *r, enum audit_problem p,
			  const char *nevra, const char *path,
			  const char *detail)
{
	r->problems[p]++;
	if (r->json)
		json_line(r->out, codes[p], nevra, path, detail);
	else if (r->verbose && detail)
		fprintf(r->out, "%-17s %s (%s: %s)\n", codes[p], path, nevra,
			detail);
	else
		fprintf(r->out, "%-17s %s\n", codes[p], path);
}

void audit_report_unowned(struct audit_report *r, const char *path,
			  const char *how, const struct audit_pkgfile *pf,
			  const char *detail)
{
	r->problems[AUDIT_UNOWNED]++;
	if (r->json) {
		fputs("{\"problem\":\"unowned\",\"path\":", r->out);
		json_string(r->out, path);
		fputs(",\"package\":", r->out);
		if (pf)
			json_string(r->out, pf->nevra);
		else
			fputs("null", r->out);
		if (pf) {
			fputs(",\"file\":", r->out);
			json_string(r->out, pf->path);
			fputs(",\"match\":", r->out);
			json_string(r->out, how);
		}
		if (detail) {
			fputs(",\"detail\":", r->out);
			json_string(r->out, detail);
		}
		fputs("}\n", r->out);
		return;
	}
	fprintf(r->out, "%-17s %s", codes[AUDIT_UNOWNED], path);
	if (pf)
		fprintf(r->out, " (%s %s %s)", how, pf->nevra, pf->path);
	if (r->verbose && detail)
		fprintf(r->out, " (%s)", detail);
	fputc('\n', r->out);
}

void audit_report_skip(struct audit_report *r, const char *nevra,
		       const char *path, const char *why)
{
	r->skipped++;
	if (!r->verbose)
		return;
	if (r->json)
		json_line(r->out, "skipped", nevra, path, why);
	else
		fprintf(r->out, "%-17s %s (%s: %s)\n", "skipped", path, nevra,
			why);
}

unsigned long audit_report_summary(struct audit_report *r)
{
	unsigned long total = 0;

	for (int p = 0; p < AUDIT_NPROBLEMS; p++)
		total += r->problems[p];
	if (r->json && r->unowned) {
		fprintf(r->out, "{\"summary\":{\"packages\":%lu,\"scanned\":%lu,"
			"\"problems\":%lu,\"unowned\":%lu}}\n", r->packages,
			r->scanned, total, r->problems[AUDIT_UNOWNED]);
		return total;
	}
	if (r->json) {
		fprintf(r->out, "{\"summary\":{\"packages\":%lu,\"checked\":%lu,"
			"\"skipped\":%lu,\"problems\":%lu", r->packages,
			r->checked, r->skipped, total);
		for (int p = 0; p < AUDIT_NPROBLEMS; p++)
			if (p != AUDIT_UNOWNED)
				fprintf(r->out, ",\"%s\":%lu", codes[p],
					r->problems[p]);
		fputs("}}\n", r->out);
		return total;
	}
	fprintf(r->out, "audit: %lu package%s, %lu file%s %s, ",
		r->packages, r->packages == 1 ? "" : "s",
		r->unowned ? r->scanned : r->checked,
		(r->unowned ? r->scanned : r->checked) == 1 ? "" : "s",
		r->unowned ? "scanned" : "checked");
	if (!total) {
		fputs("no problems\n", r->out);
		return 0;
	}
	fprintf(r->out, "%lu problem%s:", total, total == 1 ? "" : "s");
	for (int p = 0, first = 1; p < AUDIT_NPROBLEMS; p++) {
		if (!r->problems[p])
			continue;
		fprintf(r->out, "%s %lu %s", first ? "" : ",", r->problems[p],
			codes[p]);
		first = 0;
	}
	fputc('\n', r->out);
	return total;
}
