/* rulecat.c - lookups in a catalog of rules (rulecat.h); the catalog is the
 * rules layer's (rules/support/registry.c). */
#include "rulecat.h"

#include <string.h>

const wl_rule *wl_rulecat_find(const wl_rulecat *c, const char *id) {
  for (size_t i = 0; c && i < c->n; i++)
    if (strcmp(c->rules[i].id, id) == 0)
      return &c->rules[i];
  return NULL;
}

size_t wl_rulecat_index(const wl_rulecat *c, const wl_rule *r) { return (size_t)(r - c->rules); }

const char *wl_rulecat_doc(const wl_rulecat *c, const char *id) {
  for (const wl_rule_doc *d = c ? c->docs : NULL; d && d->id; d++)
    if (strcmp(d->id, id) == 0)
      return d->markdown;
  return NULL;
}
