/* arena.h - bump allocator owning every IR node and interned string of one TU. */
#ifndef WARPLINT_ARENA_H
#define WARPLINT_ARENA_H

#include <stddef.h>

typedef struct wl_arena_block wl_arena_block;
typedef struct wl_arena {
  wl_arena_block *head;
  size_t used; /* the sum of the blocks' used bytes: wl_arena_size in O(1) */
} wl_arena;

void wl_arena_init(wl_arena *a);
void wl_arena_free(wl_arena *a);
/* Zeroed memory; aborts on allocation failure (out of memory is not recoverable here). */
void *wl_arena_alloc(wl_arena *a, size_t n);
char *wl_arena_strdup(wl_arena *a, const char *s);
char *wl_arena_strndup(wl_arena *a, const char *s, size_t n);
/* The bytes allocated from the arena (not counting its blocks' free tails). */
size_t wl_arena_size(const wl_arena *a);
/* A point in an arena's allocations (wl_arena_mark), to give back what was
 * allocated after it (wl_arena_release). */
typedef struct wl_arena_mark {
  wl_arena_block *head;
  size_t head_used, used;
} wl_arena_mark;
wl_arena_mark wl_arena_mark_now(const wl_arena *a);
/* Frees every allocation made since m (nothing allocated since may be used
 * again); returns the bytes given back. */
size_t wl_arena_release(wl_arena *a, wl_arena_mark m);
/* Copies n pointers into a new arena array. */
void **wl_arena_dup_ptrs(wl_arena *a, void *const *v, size_t n);

#endif
