/* hmap.c - open-addressing hash maps (hmap.h): linear probing, grown at 1/2
 * load, no deletion (every map lives as long as one analysis). */
#include "hmap.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"

uint64_t wl_fnv1a(uint64_t h, const void *data, size_t len) {
  const unsigned char *p = data;
  for (size_t i = 0; i < len; i++) {
    h ^= p[i];
    h *= UINT64_C(1099511628211);
  }
  return h;
}

static uint64_t hash_of(const wl_hmap *m, const void *key) {
  if (m->strings)
    return wl_fnv1a(WL_FNV_START, key, strlen(key));
  uint64_t x = (uint64_t)(uintptr_t)key;
  x ^= x >> 33;
  x *= UINT64_C(0xff51afd7ed558ccd);
  x ^= x >> 33;
  return x;
}

static bool same(const wl_hmap *m, const wl_hmap_slot *s, const void *key, uint64_t h) {
  if (!m->strings)
    return s->key == key;
  return s->hash == h && strcmp(s->key, key) == 0;
}

void wl_hmap_init(wl_hmap *m, bool string_keys) {
  memset(m, 0, sizeof *m);
  m->strings = string_keys;
}

void wl_hmap_free(wl_hmap *m) {
  free(m->slots);
  m->slots = NULL;
  m->cap = m->n = 0;
}

static wl_hmap_slot *find(const wl_hmap *m, const void *key, uint64_t h) {
  if (!m->cap)
    return NULL;
  size_t mask = m->cap - 1;
  for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
    wl_hmap_slot *s = &m->slots[i];
    if (!s->key || same(m, s, key, h))
      return s;
  }
}

void *wl_hmap_get(const wl_hmap *m, const void *key) {
  if (!key)
    return NULL;
  wl_hmap_slot *s = find(m, key, hash_of(m, key));
  return s && s->key ? s->val : NULL;
}

static void grow(wl_hmap *m) {
  size_t cap = m->cap ? m->cap * 2 : 16;
  wl_hmap_slot *old = m->slots;
  size_t oldcap = m->cap;
  m->slots = wl_xcalloc(cap, sizeof *m->slots);
  m->cap = cap;
  for (size_t i = 0; i < oldcap; i++)
    if (old[i].key)
      *find(m, old[i].key, old[i].hash) = old[i];
  free(old);
}

void **wl_hmap_slot_of(wl_hmap *m, const void *key) {
  uint64_t h = hash_of(m, key);
  if ((m->n + 1) * 2 > m->cap)
    grow(m);
  wl_hmap_slot *s = find(m, key, h);
  if (!s->key) {
    s->key = key;
    s->hash = h;
    s->val = NULL;
    m->n++;
  }
  return &s->val;
}

void wl_hmap_put(wl_hmap *m, const void *key, void *val, bool replace) {
  size_t n = m->n;
  void **v = wl_hmap_slot_of(m, key);
  if (replace || m->n != n)
    *v = val;
}
