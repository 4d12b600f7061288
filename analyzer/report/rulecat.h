/* rulecat.h - the catalog of rules as reports need it: the id, default
 * severity and summary of every rule of rules/rules.def, in its order, and
 * each rule's documentation (rules/<id>.md, embedded at build time). The
 * rules themselves (rules.h) sit above the reports; suppressions, emitters
 * and options ask this catalog. */
#ifndef WARPLINT_RULECAT_H
#define WARPLINT_RULECAT_H

#include <stddef.h>

#include "diag.h"

typedef struct wl_rule {
  const char *id;
  wl_severity severity;
  const char *summary;
} wl_rule;

extern const wl_rule wl_rules[]; /* rules.def order */
extern const size_t wl_nrules;
const wl_rule *wl_rule_find(const char *id);
size_t wl_rule_index(const wl_rule *r);

typedef struct wl_rule_doc {
  const char *id;
  const char *markdown;
} wl_rule_doc;
extern const wl_rule_doc
    wl_rule_docs[]; /* generated from the rules/ markdown docs, ends with {0,0} */
const char *wl_rule_doc_text(const char *id);

#endif
