/* registry.c - the registration of the rules: from each line of rules.def,
 * the rule's catalog entry (id, default severity, summary) and its function,
 * at the same index, so a rule runs under the id of its own line; and the
 * catalog handed down to the reports (rulecat.h). */
#include <stdlib.h>

#include "rules.h"

const wl_rule wl_rules[] = {
#define WL_RULE(cname, id, sev, summary) {id, sev, summary},
#include "rules.def"
#undef WL_RULE
};
const size_t wl_nrules = sizeof wl_rules / sizeof wl_rules[0];

const wl_rule_fn wl_rule_runs[] = {
#define WL_RULE(cname, id, sev, summary) wl_rule_##cname,
#include "rules.def"
#undef WL_RULE
};

/* one function per catalog entry, or the build fails */
_Static_assert(sizeof wl_rule_runs / sizeof wl_rule_runs[0] == sizeof wl_rules / sizeof wl_rules[0],
               "rules.def made catalog and functions of different lengths");

const wl_rulecat wl_rule_catalog = {wl_rules, sizeof wl_rules / sizeof wl_rules[0], wl_rule_docs};

const wl_rule *wl_rule_find(const char *id) { return wl_rulecat_find(&wl_rule_catalog, id); }

size_t wl_rule_index(const wl_rule *r) { return wl_rulecat_index(&wl_rule_catalog, r); }

const char *wl_rule_doc_text(const char *id) { return wl_rulecat_doc(&wl_rule_catalog, id); }
