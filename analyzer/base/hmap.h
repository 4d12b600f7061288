/* hmap.h - open-addressing hash maps from a pointer or a NUL-terminated
 * string to a pointer, for lookups that were linear scans (races by
 * statement, called functions, a TU's files). Keys are not copied: they must
 * outlive the map. */
#ifndef WARPLINT_HMAP_H
#define WARPLINT_HMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct wl_hmap_slot {
  const void *key; /* NULL: empty */
  void *val;
  uint64_t hash;
} wl_hmap_slot;

typedef struct wl_hmap {
  wl_hmap_slot *slots;
  size_t cap, n; /* cap: 0 or a power of two */
  bool strings;  /* keys are strings compared by contents, else pointers */
} wl_hmap;

void wl_hmap_init(wl_hmap *m, bool string_keys);
void wl_hmap_free(wl_hmap *m);
/* The value of key, or NULL when absent. */
void *wl_hmap_get(const wl_hmap *m, const void *key);
/* The slot holding the value of key (inserted with value NULL when absent). */
void **wl_hmap_slot_of(wl_hmap *m, const void *key);
/* Sets key's value; a key that is already there keeps its first value unless
 * replace. */
void wl_hmap_put(wl_hmap *m, const void *key, void *val, bool replace);

/* 64-bit FNV-1a, continuing from h (start with WL_FNV_START). */
#define WL_FNV_START UINT64_C(14695981039346656037)
uint64_t wl_fnv1a(uint64_t h, const void *data, size_t len);

#endif
