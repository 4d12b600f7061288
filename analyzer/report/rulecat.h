/* rulecat.h - the catalog of rules as reports need it: the id, default
 * severity and summary of every rule, and each rule's documentation. The
 * catalog itself is made by the rules layer from rules/rules.def (the
 * registry, rules.h: wl_rule_catalog) and handed down to the reports that
 * need it (suppressions, SARIF), so nothing here knows which rules exist. */
#ifndef WARPLINT_RULECAT_H
#define WARPLINT_RULECAT_H

#include <stddef.h>

#include "diag.h"

typedef struct wl_rule {
  const char *id;
  wl_severity severity;
  const char *summary;
} wl_rule;

typedef struct wl_rule_doc {
  const char *id;
  const char *markdown;
} wl_rule_doc;

typedef struct wl_rulecat {
  const wl_rule *rules; /* rules.def order */
  size_t n;
  const wl_rule_doc *docs; /* the rules/ markdown docs (pseudo-rules' too), ends with {0,0} */
} wl_rulecat;

/* The rule of the catalog with this id, NULL when none (or no catalog). */
const wl_rule *wl_rulecat_find(const wl_rulecat *c, const char *id);
/* A rule's position in the catalog (r is one of c->rules). */
size_t wl_rulecat_index(const wl_rulecat *c, const wl_rule *r);
/* The markdown doc of a rule or pseudo-rule, NULL when none. */
const char *wl_rulecat_doc(const wl_rulecat *c, const char *id);

#endif
