/* wording.h - phrases the rules' messages share: where a finding about a
 * call is reported, why code is reached by part of a warp, a callee's name,
 * a set of lanes. The analyses answer with facts; the words are the rules'. */
#ifndef WARPLINT_WORDING_H
#define WARPLINT_WORDING_H

#include <stddef.h>

#include "ir.h"
#include "lanes.h"

/* A set of lanes for a message: "0-7, 16, 18-31" (truncated to fit size). */
void wl_wording_lanes(unsigned set, char *buf, size_t size);

/* A name for messages: the callee's name, or the lambda variable's. */
const char *wl_wording_call_name(const wl_expr *call);

/* Where to report a call: its own range, except for a call written inside a
 * macro that is expanded in the main file (a migration shim such as
 * `#define __shfl(x, y) __shfl_sync(0xffffffff, x, y)`): then each expansion
 * site, so that every use in divergent code gets its finding. *macro is set
 * to what wl_report_range expects. */
wl_range wl_wording_site(const wl_tu *tu, const wl_expr *e, const wl_macro_info **macro);

/* Writes a phrase saying why code is reached by part of a warp, such as
 * "under the lane-dependent condition 'lane < 16' (line 14)", into buf. */
void wl_wording_reach(const wl_tu *tu, const wl_lane_reach *r, char *buf, size_t size);

#endif
