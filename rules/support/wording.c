/* wording.c - phrases the rules' messages share (wording.h). */
#include "wording.h"

#include <stdio.h>

void wl_lane_list(unsigned set, char *buf, size_t size) {
  size_t o = 0;
  buf[0] = '\0';
  for (unsigned i = 0; i < 32 && o + 12 < size; i++) {
    if (!(set & (1u << i)))
      continue;
    unsigned j = i;
    while (j + 1 < 32 && (set & (1u << (j + 1))))
      j++;
    int n = j > i ? snprintf(buf + o, size - o, "%s%u-%u", o ? ", " : "", i, j)
                  : snprintf(buf + o, size - o, "%s%u", o ? ", " : "", i);
    o += n > 0 ? (size_t)n : 0;
    i = j;
  }
}
