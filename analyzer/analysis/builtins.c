/* builtins.c - the catalog of CUDA built-ins (builtins.def) and its lookups. */
#include "builtins.h"

#include <ctype.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#define INTRINSIC WL_BF_INTRINSIC
#define CG WL_BF_CG
#define UNIFORM WL_BR_UNIFORM
#define LANE WL_BR_LANE
#define ARGS WL_BR_ARGS
#define OTHER WL_BR_OTHER
#define NONE WL_BO_NONE
#define COLLECTIVE WL_BO_COLLECTIVE
#define BARRIER WL_BO_BARRIER

static const wl_builtin catalog[] = {
#define WL_BUILTIN(name, kind, form, mask, width, src, result, orders, legacy, repl, pure)         \
  {name, kind, form, mask, width, src, result, orders, legacy, repl, pure, sizeof(name) - 1},
#include "builtins.def"
#undef WL_BUILTIN
};

/* The catalog's names hashed into a table of indices (open addressing,
 * linear probing), filled once: wl_builtin_find is called for every call
 * the analyses meet, and a scan of the catalog was 4 % of a legacy miner
 * file's run (ccminer's cuda_lyra2.cu). */
#define NCATALOG (sizeof catalog / sizeof catalog[0])
#define SLOTS 256u                 /* a power of two, more than twice the catalog */
static unsigned char slots[SLOTS]; /* 1 + index into catalog; 0: empty */
static pthread_once_t slots_once = PTHREAD_ONCE_INIT;

static unsigned name_hash(const char *name, size_t n) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; i++)
    h = (h ^ (unsigned char)name[i]) * 16777619u;
  return h & (SLOTS - 1);
}

static void fill_slots(void) {
  _Static_assert(NCATALOG < SLOTS / 2 && NCATALOG < 255, "the table of built-ins is too small");
  for (size_t i = 0; i < NCATALOG; i++) {
    unsigned h = name_hash(catalog[i].name, catalog[i].len);
    while (slots[h])
      h = (h + 1) & (SLOTS - 1);
    slots[h] = (unsigned char)(i + 1);
  }
}

const wl_builtin *wl_builtin_find(const char *name) {
  if (!name)
    return NULL;
  pthread_once(&slots_once, fill_slots);
  size_t n = strlen(name);
  for (unsigned h = name_hash(name, n); slots[h]; h = (h + 1) & (SLOTS - 1)) {
    const wl_builtin *b = &catalog[slots[h] - 1];
    if (b->len == n && memcmp(b->name, name, n) == 0)
      return b;
  }
  if (strncmp(name, "atomic", 6) == 0)
    return wl_builtin_find("atomic");
  return NULL;
}

const wl_builtin *wl_builtin_call(const wl_expr *e, wl_builtin_kind kind, wl_builtin_form form) {
  e = wl_expr_strip(e);
  const wl_builtin *b = e && e->kind == WL_E_CALL ? wl_builtin_find(e->name) : NULL;
  return b && b->kind == kind && b->form == form ? b : NULL;
}

bool wl_builtin_vote_is_ballot(const wl_builtin *b) {
  return b && b->kind == WL_BK_VOTE && strstr(b->name, "ballot") != NULL;
}

const char *wl_builtin_group_type(const wl_builtin *b) {
  if (!b || b->kind != WL_BK_GROUP_THIS)
    return NULL;
  return strcmp(b->name, "this_grid") == 0 ? "grid_group" : "thread_block";
}

bool wl_builtin_is_shuffle(const wl_builtin *b) {
  return b && (b->kind == WL_BK_SHFL || b->kind == WL_BK_SHFL_UP || b->kind == WL_BK_SHFL_DOWN ||
               b->kind == WL_BK_SHFL_XOR);
}

bool wl_builtin_is_warp_intrinsic(const wl_builtin *b) {
  return b && b->form == WL_BF_INTRINSIC &&
         (wl_builtin_is_shuffle(b) || b->kind == WL_BK_VOTE || b->kind == WL_BK_MATCH ||
          b->kind == WL_BK_REDUCE || b->kind == WL_BK_SYNCWARP);
}

long long wl_builtin_shuffle_source(wl_builtin_kind kind, unsigned lane, long long src,
                                    long long width) {
  long long base = lane / width * width;
  switch (kind) {
  case WL_BK_SHFL: return base + ((src % width) + width) % width;
  case WL_BK_SHFL_UP: return (long long)lane - src < base ? lane : (long long)lane - src;
  case WL_BK_SHFL_DOWN: return (long long)lane + src >= base + width ? lane : (long long)lane + src;
  case WL_BK_SHFL_XOR: { /* a partner outside the lane's segment: its own value */
    long long t = (long long)(lane ^ (unsigned)src);
    return t >= 0 && t < 32 && t / width == lane / width ? t : lane;
  }
  default: return -1;
  }
}

bool wl_builtin_pure_expr(const wl_expr *e) {
  if (!e)
    return true;
  switch (e->kind) {
  case WL_E_CALL: {
    const wl_builtin *b = wl_builtin_find(e->name);
    if (!b || !b->pure)
      return false;
    break;
  }
  case WL_E_BINARY:
    if (wl_binop_is_assign(e->op) || e->op == WL_B_COMMA)
      return false;
    break;
  case WL_E_UNARY:
    if (e->op == WL_U_PREINC || e->op == WL_U_PREDEC || e->op == WL_U_POSTINC ||
        e->op == WL_U_POSTDEC)
      return false;
    break;
  case WL_E_LAMBDA:
  case WL_E_OTHER: return false;
  default: break;
  }
  for (unsigned i = 0; i < e->nargs; i++)
    if (!wl_builtin_pure_expr(e->args[i]))
      return false;
  return true;
}

bool wl_builtin_name_says_lane(const char *name) {
  if (!name)
    return false;
  char low[64];
  size_t n = 0;
  for (const char *p = name; *p && n + 1 < sizeof low; p++)
    if (*p != '_')
      low[n++] = (char)tolower((unsigned char)*p);
  low[n] = '\0';
  const char *l = strstr(low, "lane");
  if (!l)
    return false;
  l += 4;
  return strncmp(l, "id", 2) == 0 || strncmp(l, "idx", 3) == 0 || strncmp(l, "index", 5) == 0 ||
         strncmp(l, "num", 3) == 0 || strcmp(low, "lane") == 0 || strcmp(low, "getlane") == 0;
}

bool wl_builtin_name_says_warp(const char *n) {
  if (!n)
    return false;
  char low[64];
  size_t k = 0;
  for (; n[k] && k + 1 < sizeof low; k++)
    low[k] = (char)((n[k] >= 'A' && n[k] <= 'Z') ? n[k] - 'A' + 'a' : n[k]);
  low[k] = 0;
  return strstr(low, "warp") || strcmp(low, "wid") == 0 || strcmp(low, "w") == 0;
}
