/* arena.c - bump allocator: blocks of at least 64 KiB, freed all at once. */
#include "arena.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct wl_arena_block {
  wl_arena_block *next;
  size_t used, cap;
  max_align_t data[];
};

void wl_arena_init(wl_arena *a) {
  a->head = NULL;
  a->used = 0;
}

void wl_arena_free(wl_arena *a) {
  wl_arena_block *b = a->head;
  while (b) {
    wl_arena_block *n = b->next;
    free(b);
    b = n;
  }
  a->head = NULL;
  a->used = 0;
}

size_t wl_arena_size(const wl_arena *a) { return a->used; }

wl_arena_mark wl_arena_mark_now(const wl_arena *a) {
  wl_arena_mark m = {a->head, a->head ? a->head->used : 0, a->used};
  return m;
}

size_t wl_arena_release(wl_arena *a, wl_arena_mark m) {
  size_t given = a->used - m.used;
  while (a->head != m.head) {
    wl_arena_block *n = a->head->next;
    free(a->head);
    a->head = n;
  }
  if (a->head)
    a->head->used = m.head_used;
  a->used = m.used;
  return given;
}

void *wl_arena_alloc(wl_arena *a, size_t n) {
  const size_t align = sizeof(max_align_t);
  n = (n + align - 1) / align * align;
  if (n == 0)
    n = align;
  wl_arena_block *b = a->head;
  if (!b || b->cap - b->used < n) {
    size_t cap = n > 65536 ? n : 65536;
    b = malloc(sizeof *b + cap);
    if (!b) {
      fputs("warplint: out of memory\n", stderr);
      abort();
    }
    b->used = 0;
    b->cap = cap;
    b->next = a->head;
    a->head = b;
  }
  void *p = (char *)b->data + b->used;
  b->used += n;
  a->used += n;
  memset(p, 0, n);
  return p;
}

char *wl_arena_strndup(wl_arena *a, const char *s, size_t n) {
  char *p = wl_arena_alloc(a, n + 1);
  memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

char *wl_arena_strdup(wl_arena *a, const char *s) {
  return s ? wl_arena_strndup(a, s, strlen(s)) : NULL;
}

void **wl_arena_dup_ptrs(wl_arena *a, void *const *v, size_t n) {
  if (n == 0)
    return NULL;
  void **p = wl_arena_alloc(a, n * sizeof *p);
  memcpy(p, v, n * sizeof *p);
  return p;
}
