/* suppress.h - inline suppression comments: reading them from a file's text
 * and applying them to the file's findings.
 *
 *   // warplint-disable-next-line <rule>[, <rule>...] [-- reason]
 *   // warplint-disable-line <rule>[, <rule>...]       (also in a trailing comment)
 *   // warplint-disable-file <rule>[, <rule>...]       (anywhere in the file)
 *   // NOLINT   // NOLINT(<rule>, ...)   // NOLINTNEXTLINE(<rule>, ...)
 *   // warplint-disable-begin <rule>, ...  ...  // warplint-disable-end <rule>, ...
 *   // NOLINTBEGIN(<rule>, ...)  ...  // NOLINTEND(<rule>, ...)
 *
 * A block covers the lines from its begin to its end comment. An end closes
 * the latest open begin of the same family with the same rule list (as
 * clang-tidy pairs them); a begin or end without its partner silences
 * nothing and is reported (unused-suppression, whatever the options: an
 * error in clang-tidy). A malformed rule list (an unclosed "NOLINT(", an
 * empty or comma-only list, more than WL_SUP_MAX_IDS ids) silences nothing
 * and is reported (invalid-suppression).
 *
 * No rule list means every rule. Rule ids may be globs ('*'). Unknown ids and
 * misspelt directives in warplint-disable comments are findings of the
 * pseudo-rule invalid-suppression; ids in NOLINT that are not warplint's are
 * left to the other tools that read NOLINT (clang-tidy). */
#ifndef WARPLINT_SUPPRESS_H
#define WARPLINT_SUPPRESS_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "rulecat.h"

/* Pseudo-rules: reported by warplint itself, not in the rule registry. */
#define WL_RULE_INVALID_SUPPRESSION "invalid-suppression"
#define WL_RULE_UNUSED_SUPPRESSION "unused-suppression"

/* The pseudo-rules as rule records (id, severity, summary; no run
 * function), for SARIF, --list-rules and --explain. */
extern const wl_rule wl_pseudo_rules[];
extern const size_t wl_npseudo_rules;

typedef enum wl_sup_kind {
  WL_SUP_LINE,
  WL_SUP_NEXT_LINE,
  WL_SUP_FILE,
  WL_SUP_BLOCK, /* lines target..target_end */
} wl_sup_kind;

/* More rule ids than this in one directive: it is malformed (ignored and
 * reported), so that a comment of 100,000 ids costs nothing. */
#define WL_SUP_MAX_IDS 64
/* At most this many invalid/unused-suppression findings per file (then one
 * saying how many more there were). */
#define WL_SUP_MAX_REPORTS 1000

typedef struct wl_sup_id {
  char *id;     /* as written; may be a glob */
  unsigned col; /* 1-based column */
  bool known;   /* names (or matches) a warplint rule or pseudo-rule */
  bool used;
} wl_sup_id;

typedef struct wl_suppression {
  wl_sup_kind kind;
  bool nolint;         /* NOLINT / NOLINTNEXTLINE */
  unsigned line, col;  /* where the directive is written (1-based) */
  unsigned offset;     /* byte offset of the directive */
  unsigned target;     /* the line it silences; 0 for the whole file; a block's first line */
  unsigned target_end; /* a block's last line (its end comment's line) */
  wl_sup_id *ids;      /* none: every rule */
  size_t nids;
  bool used; /* (no ids) silenced something */
} wl_suppression;

/* A misspelt or malformed directive (warplint-disable-nextline, NOLINT(),
 * an unclosed list), or a block begin or end without its partner. */
typedef struct wl_sup_problem {
  unsigned line, col, offset;
  unsigned width;   /* of the text it is about */
  const char *rule; /* WL_RULE_INVALID_SUPPRESSION or WL_RULE_UNUSED_SUPPRESSION */
  char *message;
} wl_sup_problem;

typedef struct wl_suppressions {
  wl_suppression *v;
  size_t n, cap;
  wl_sup_problem *problems;
  size_t nproblems;
} wl_suppressions;

/* Reads every directive in the comments of src (strings and character
 * literals are skipped). rules: the catalog whose ids are known (with the
 * pseudo-rules'); NULL: none. */
void wl_suppressions_scan(const char *src, size_t len, const wl_rulecat *rules,
                          wl_suppressions *out);
void wl_suppressions_free(wl_suppressions *s);
/* Whether a finding of rule on line is silenced; marks what silenced it as used. */
bool wl_suppressions_match(wl_suppressions *s, const char *rule, unsigned line);

/* Applies the suppressions of src (the text of `file`) to the findings of f
 * in that file: silenced findings are removed, invalid-suppression findings
 * added, and with report_unused also unused-suppression findings for
 * warplint-owned directives (and NOLINT ids naming warplint rules) that
 * silenced nothing. rules: the catalog of the rules that may have run (the
 * registry's wl_rule_catalog). enabled (per rule, in the catalog's order;
 * NULL: all): a suppression of a rule that did not run is never reported
 * unused. */
void wl_suppress_apply(const char *src, size_t len, const char *file, const wl_rulecat *rules,
                       const bool *enabled, bool report_unused, wl_findings *f);

#endif
