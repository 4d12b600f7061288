/* wording.h - phrases the rules' messages share: where a finding about a
 * call is reported, why code is reached by part of a warp, a callee's name,
 * a set of lanes. The analyses answer with facts; the words are the rules'. */
#ifndef WARPLINT_WORDING_H
#define WARPLINT_WORDING_H

#include <stddef.h>

/* A set of lanes for a message: "0-7, 16, 18-31" (truncated to fit size). */
void wl_lane_list(unsigned set, char *buf, size_t size);

#endif
