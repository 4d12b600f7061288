/* analyze.c - runs the registered rules over a lowered translation unit. */
#include "analyze.h"

#include "analyses.h"
#include "rules.h"
#include "suppress.h"

void wl_run_rules(const wl_tu *tu, const char *display_path, const wl_analyze_opts *o,
                  wl_findings *out) {
  wl_analyses an;
  wl_analyses_init(&an, tu);
  if (o) {
    an.whole_warps = o->whole_warps;
    an.rows_are_warps = o->rows_are_warps;
  }
  wl_findings local;
  wl_findings_init(&local);
  wl_rule_ctx ctx = {tu, &local, display_path, &an, o && o->parse.arch ? o->parse.arch : 75};
  for (size_t i = 0; i < wl_nrules; i++) {
    if (o && o->enabled && !o->enabled[i])
      continue;
    size_t before = local.n;
    wl_rules[i].run(&ctx);
    if (o && o->severity)
      for (size_t j = before; j < local.n; j++)
        local.v[j].severity = o->severity[i];
  }
  wl_analyses_free(&an);
  wl_suppress_apply(tu->source, tu->source_len, display_path, o ? o->enabled : NULL,
                    o && o->report_unused_suppressions, &local);
  for (unsigned i = 0; i < tu->nnotices; i++) {
    const wl_parse_diag *d = &tu->notices[i];
    bool main = !d->loc.file || wl_tu_in_main(tu, d->loc);
    wl_findings_add_notice(&local, main ? display_path : d->loc.file, d->loc.line, d->loc.col,
                           d->message);
  }
  wl_findings_move(out, &local);
}

wl_parse_status wl_analyze_file(wl_parser *p, const char *path, const char *contents,
                                const wl_analyze_opts *o, wl_findings *out, wl_buf *err) {
  wl_tu *tu = NULL;
  wl_parse_status st = wl_parse(p, path, contents, &o->parse, &tu, err);
  if (st != WL_PARSE_OK)
    return st;
  wl_run_rules(tu, path, o, out);
  wl_tu_free(tu);
  return WL_PARSE_OK;
}
