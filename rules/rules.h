/* rules.h - the rule registry, the context a rule runs in, and how a rule
 * reports. */
#ifndef WARPLINT_RULES_H
#define WARPLINT_RULES_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "ir.h"
#include "rulecat.h"

struct wl_analyses;   /* lazily built per-TU analyses (lanes, shared memory) */
struct wl_mask_fixer; /* support/mask_fix.h */

typedef struct wl_rule_ctx {
  const wl_tu *tu;
  wl_findings *out;
  const char *display_path; /* main file path as the user gave it */
  struct wl_analyses *an;   /* the analysis manager (analyses.h) */
  unsigned arch;            /* target compute capability, e.g. 75 */
  /* state the rules' fixes share within a TU (wl_mask_fixer_of), NULL until
   * asked for; freed by wl_rule_ctx_free */
  struct wl_mask_fixer *fixer;
  /* the rule running now, set by the runner from its rules.def line: the id
   * and default severity of everything it reports (a rule never names an id) */
  const wl_rule *rule;
} wl_rule_ctx;

/* Frees what the rules left in ctx (not the TU, findings or analyses). */
void wl_rule_ctx_free(wl_rule_ctx *ctx);
/* The path a finding, note or notice at loc carries: the file reported on
 * now, else wl_tu_shown_path (a reported header's displayed path). */
const char *wl_rule_shown_path(const wl_rule_ctx *ctx, wl_loc loc);

typedef void (*wl_rule_fn)(wl_rule_ctx *ctx);

#define WL_RULE(cname, id, sev, summary) void wl_rule_##cname(wl_rule_ctx *ctx);
#include "rules.def"
#undef WL_RULE

/* ---- the registry (support/registry.c) ----------------------------------
 * Made from rules.def: wl_rules[i] (id, default severity, summary) and
 * wl_rule_runs[i] come from the same line, and the runner calls
 * wl_rule_runs[i] with ctx->rule == &wl_rules[i]. */
extern const wl_rule wl_rules[]; /* rules.def order */
extern const size_t wl_nrules;
extern const wl_rule_fn wl_rule_runs[];
/* the rules/ markdown docs (generated at build time), ends with {0,0} */
extern const wl_rule_doc wl_rule_docs[];
/* The catalog handed down to the reports (suppressions, SARIF: rulecat.h). */
extern const wl_rulecat wl_rule_catalog;
const wl_rule *wl_rule_find(const char *id);
size_t wl_rule_index(const wl_rule *r);
const char *wl_rule_doc_text(const char *id);

/* ---- reporting (support/reporting.c) ------------------------------------ */

/* Reporting from rules, under the id of the rule running (ctx->rule): there
 * is no id to pass, so a rule cannot report as another. The finding is placed at the node's
 * location in the main file: a node spelled inside a macro definition of the main file is reported
 * once at its spelling there, with the expansion site as a note; a node spelled in another file (a
 * header) is reported at the expansion site in the main file. Nodes wholly outside the main file
 * are not reported (that file gets its findings when it is analyzed itself); NULL is returned. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
wl_finding *
wl_report_expr(wl_rule_ctx *ctx, const wl_expr *e, const char *fmt, ...);
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
wl_finding *
wl_report_range(wl_rule_ctx *ctx, wl_range r, const wl_macro_info *macro, const char *fmt, ...);
/* Adds a note at a location (ignored when the location is unknown). */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
void wl_note_at(const wl_rule_ctx *ctx, wl_finding *fd, wl_loc loc, const char *fmt, ...);
/* Adds an edit replacing range r of the main file by text to the finding's
 * automatic fix. Refused (false) when the range is not plain main-file text
 * or when the parser reported an error on the lines it touches: a fix is
 * never applied where the parse had errors. */
bool wl_fix_replace(wl_rule_ctx *ctx, wl_finding *fd, wl_range r, const char *text);
/* Adds an edit inserting the statement `text` (e.g. "__syncwarp();") before
 * statement s: on a line of its own with s's indentation when s starts its
 * line, else inline. Refused like wl_fix_replace. */
bool wl_fix_insert_before(wl_rule_ctx *ctx, wl_finding *fd, const wl_stmt *s, const char *text);
/* Adds an edit replacing range r (statements) by a block of the n
 * statements stmts, one per line: "{", each statement indented one level
 * deeper than the line r begins on, "}" at that line's indentation. The
 * level is the file's own (what the nearest shallower line before adds:
 * tabs or so many spaces) and the line break the file's (LF or CRLF).
 * Refused like wl_fix_replace. */
bool wl_fix_replace_block(wl_rule_ctx *ctx, wl_finding *fd, wl_range r, const char *const *stmts,
                          size_t n);
/* Drops the finding's edits (a rule whose fix turned out partial). */
void wl_fix_clear(wl_finding *fd);

/* Source text of a range of the main file (arena-owned copy), NULL if not in the main file. */
const char *wl_source_text(const wl_rule_ctx *ctx, wl_range r);

#endif
