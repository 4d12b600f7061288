/* shared/api.c - the result object: accesses found (hashed by expression) and races, freeing,
 * accessors (see shared.h and internal.h). */
#include "internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Results                                                                  */

size_t sma_hash_ptr(const void *p, bool w) {
  uint64_t h = (uint64_t)(uintptr_t)p ^ (w ? 0x5bd1e995u : 0u);
  h *= 0x9E3779B97F4A7C15ULL;
  return (size_t)(h ^ (h >> 29));
}

static const wl_smem_access *find_access(const wl_smem *sm, const wl_expr *e, bool write) {
  if (!sm->nslots)
    return NULL;
  for (size_t i = sma_hash_ptr(e, write) & (sm->nslots - 1);; i = (i + 1) & (sm->nslots - 1)) {
    size_t s = sm->slots[i];
    if (!s)
      return NULL;
    const wl_smem_access *a = &sm->accs[s - 1];
    if (a->expr == e && a->write == write)
      return a;
  }
}

void sma_note_access(wl_smem *sm, const wl_smem_access *a) {
  if (find_access(sm, a->expr, a->write))
    return;
  if ((sm->naccs + 1) * 2 > sm->nslots) {
    size_t n = sm->nslots ? sm->nslots * 2 : 64;
    free(sm->slots);
    sm->slots = wl_xcalloc(n, sizeof *sm->slots);
    sm->nslots = n;
    for (size_t k = 0; k < sm->naccs; k++) {
      size_t i = sma_hash_ptr(sm->accs[k].expr, sm->accs[k].write) & (n - 1);
      while (sm->slots[i])
        i = (i + 1) & (n - 1);
      sm->slots[i] = k + 1;
    }
  }
  if (sm->naccs == sm->capaccs) {
    sm->capaccs = sm->capaccs ? sm->capaccs * 2 : 32;
    sm->accs = wl_xrealloc(sm->accs, sm->capaccs * sizeof *sm->accs);
  }
  sm->accs[sm->naccs] = *a;
  size_t i = sma_hash_ptr(a->expr, a->write) & (sm->nslots - 1);
  while (sm->slots[i])
    i = (i + 1) & (sm->nslots - 1);
  sm->slots[i] = ++sm->naccs;
}

void wl_smem_free(wl_smem *sm) {
  if (!sm)
    return;
  free(sm->races);
  free(sm->accs);
  free(sm->slots);
  free(sm->rslots);
  wl_vec_free(&sm->exhausted);
  for (size_t i = 0; i < sm->shared_locals.cap; i++)
    if (sm->shared_locals.slots[i].key) {
      wl_vec_free(sm->shared_locals.slots[i].val);
      free(sm->shared_locals.slots[i].val);
    }
  wl_hmap_free(&sm->shared_locals);
  wl_vec_free(&sm->own_views);
  free(sm);
}

size_t wl_smem_nraces(const wl_smem *sm) { return sm->nraces; }

const wl_smem_race *wl_smem_race_at(const wl_smem *sm, size_t i) {
  return i < sm->nraces ? &sm->races[i] : NULL;
}

size_t wl_smem_naccesses(const wl_smem *sm) { return sm->naccs; }

const wl_smem_access *wl_smem_access_at(const wl_smem *sm, size_t i) {
  return i < sm->naccs ? &sm->accs[i] : NULL;
}

bool wl_smem_is_shared(const wl_smem *sm, const wl_expr *e) {
  return find_access(sm, e, false) || find_access(sm, e, true);
}

bool wl_smem_incomplete(const wl_smem *sm) { return sm->incomplete; }
unsigned long wl_smem_pairs_examined(const wl_smem *sm) { return sm->pairs; }

size_t wl_smem_arena_peak(const wl_smem *sm) { return sm->arena_peak; }
size_t wl_smem_arena_given_back(const wl_smem *sm) { return sm->arena_given_back; }

size_t wl_smem_nexhausted(const wl_smem *sm) { return sm->exhausted.n; }

const wl_func *wl_smem_exhausted_at(const wl_smem *sm, size_t i) { return sm->exhausted.v[i]; }

void sma_view_reads(wl_smem *sm, const char *header) {
  if (!header) {
    sm->main_text = true;
    return;
  }
  for (size_t i = 0; i < sm->own_views.n; i++)
    if (sm->own_views.v[i] == header || strcmp(sm->own_views.v[i], header) == 0)
      return;
  wl_vec_push(&sm->own_views, (void *)header);
}

bool wl_smem_serves_view(const wl_smem *sm, const wl_tu *tu) {
  if (!sm->main_view || sm->main_text || !tu->path)
    return false;
  for (size_t i = 0; i < sm->own_views.n; i++)
    if (strcmp(sm->own_views.v[i], tu->path) == 0)
      return false;
  return true;
}
