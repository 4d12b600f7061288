/* rulecat.c - the catalog of rules (rulecat.h), built from rules/rules.def. */
#include "rulecat.h"

#include <string.h>

const wl_rule wl_rules[] = {
#define WL_RULE(cname, id, sev, summary) {id, sev, summary},
#include "../../rules/rules.def"
#undef WL_RULE
};
const size_t wl_nrules = sizeof wl_rules / sizeof wl_rules[0];

const wl_rule *wl_rule_find(const char *id) {
  for (size_t i = 0; i < wl_nrules; i++)
    if (strcmp(wl_rules[i].id, id) == 0)
      return &wl_rules[i];
  return NULL;
}

size_t wl_rule_index(const wl_rule *r) { return (size_t)(r - wl_rules); }

const char *wl_rule_doc_text(const char *id) {
  for (const wl_rule_doc *d = wl_rule_docs; d->id; d++)
    if (strcmp(d->id, id) == 0)
      return d->markdown;
  return NULL;
}
