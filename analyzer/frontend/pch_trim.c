/* pch_trim.c - the edit of a saved precompiled header described in
 * pch_trim.h: a reader of the LLVM bitstream container just deep enough to
 * find the control block's METADATA record (the format version) and two
 * records of the AST block, DECLS_TO_CHECK_FOR_DEFERRED_DIAGS and
 * UNUSED_FILESCOPED_DECLS, and a rewrite of their record codes, in place
 * and with the same number of bits.
 *
 * Why this is safe: clang's ASTReader skips records of unknown codes in the
 * AST block, and the two lists only start end-of-unit walks that emit
 * diagnostics about the header's own declarations:
 * - Sema::emitDeferredDiags starts from the listed device functions when a
 *   unit has deferred CUDA diagnostics; those are recorded while a unit is
 *   parsed and are not saved in the header (the header's own are lost in
 *   any case), and a walk from a header's function reaches the main file's
 *   functions only through a function the header declares and the file
 *   defines;
 * - the unused-declaration warnings (-Wunused-function and the like) about
 *   the header's static declarations: warplint parses with -w.
 * Everything else in the file, the functions included, is unchanged and
 * read on demand as before. */
#define _DEFAULT_SOURCE
#include "pch_trim.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"

/* clang 19's serialization codes (clang/Serialization/ASTBitCodes.h) */
#define AST_BLOCK_ID 8
#define CONTROL_BLOCK_ID 15
#define METADATA 1
#define UNUSED_FILESCOPED_DECLS 17
#define DECLS_TO_CHECK_FOR_DEFERRED_DIAGS 64

/* The lists, and the codes written instead: codes the format does not use,
 * with as many 6-bit chunks in the record's VBR6 encoding (one below 32,
 * two from 32 to 1023). */
static const struct list_code {
  unsigned code, bits, replacement;
} lists[] = {
    {DECLS_TO_CHECK_FOR_DEFERRED_DIAGS, 12, 1023},
    {UNUSED_FILESCOPED_DECLS, 6, 31},
};
#define NLISTS (sizeof lists / sizeof lists[0])

/* LLVM bitstream abbreviation ids and operand encodings */
enum { END_BLOCK, ENTER_SUBBLOCK, DEFINE_ABBREV, UNABBREV_RECORD };
enum { OP_LITERAL, OP_FIXED, OP_VBR, OP_ARRAY, OP_CHAR6, OP_BLOB };
#define MAX_ABBREV_OPS 64

typedef struct bits {
  const unsigned char *d;
  uint64_t n, pos; /* in bits */
  bool bad;
} bits;

typedef struct op {
  unsigned kind;
  uint64_t value;
} op;

typedef struct abbrev {
  op ops[MAX_ABBREV_OPS];
  unsigned n;
} abbrev;

typedef struct abbrevs {
  abbrev *v;
  size_t n, cap;
} abbrevs;

/* abbreviations the BLOCKINFO block gives to a block id */
typedef struct block_info {
  uint64_t bid;
  abbrevs list;
} block_info;

typedef struct walk {
  bits b;
  block_info *info;
  size_t ninfo;
  uint64_t major;              /* METADATA's first operand; 0: not seen */
  uint64_t list_pos[NLISTS];   /* bit position of each list record's code */
  unsigned list_count[NLISTS]; /* such records seen */
  bool unexpected;             /* a list in a form the edit does not know */
} walk;

static int list_of(uint64_t code) {
  for (size_t i = 0; i < NLISTS; i++)
    if (lists[i].code == code)
      return (int)i;
  return -1;
}

static uint64_t rd(bits *b, unsigned w) {
  if (w > 64 || b->bad || b->pos + w > b->n) {
    b->bad = true;
    return 0;
  }
  uint64_t v = 0;
  for (unsigned i = 0; i < w; i++, b->pos++)
    v |= (uint64_t)((b->d[b->pos >> 3] >> (b->pos & 7)) & 1u) << i;
  return v;
}

static uint64_t vbr(bits *b, unsigned w) {
  if (w < 2 || w > 32) {
    b->bad = true;
    return 0;
  }
  uint64_t v = 0;
  unsigned shift = 0;
  for (;;) {
    uint64_t chunk = rd(b, w);
    if (b->bad)
      return 0;
    if (shift < 64)
      v |= (chunk & ((UINT64_C(1) << (w - 1)) - 1)) << shift;
    if (!(chunk >> (w - 1)))
      return v;
    shift += w - 1;
    if (shift > 70) { /* longer than any 64-bit value */
      b->bad = true;
      return 0;
    }
  }
}

static void align32(bits *b) {
  uint64_t p = (b->pos + 31) & ~(uint64_t)31;
  if (p > b->n)
    b->bad = true;
  else
    b->pos = p;
}

static void skip_bits(bits *b, uint64_t n) {
  if (b->bad || n > b->n - b->pos)
    b->bad = true;
  else
    b->pos += n;
}

static void push_abbrev(abbrevs *l, const abbrev *a) {
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 16;
    l->v = wl_xrealloc(l->v, l->cap * sizeof *l->v);
  }
  l->v[l->n++] = *a;
}

static void read_abbrev(bits *b, abbrev *a) {
  uint64_t n = vbr(b, 5);
  if (n == 0 || n > MAX_ABBREV_OPS) {
    b->bad = true;
    return;
  }
  a->n = 0;
  for (uint64_t i = 0; i < n && !b->bad; i++) {
    op o = {OP_LITERAL, 0};
    if (rd(b, 1)) {
      o.value = vbr(b, 8);
    } else {
      o.kind = (unsigned)rd(b, 3);
      if (o.kind == OP_FIXED || o.kind == OP_VBR) {
        o.value = vbr(b, 5);
        if (o.value == 0) /* LLVM reads a zero width as the literal 0 */
          o.kind = OP_LITERAL;
        else if (o.value > (o.kind == OP_FIXED ? 64u : 32u))
          b->bad = true;
      } else if (o.kind != OP_ARRAY && o.kind != OP_CHAR6 && o.kind != OP_BLOB) {
        b->bad = true;
      }
    }
    a->ops[a->n++] = o;
  }
}

static uint64_t read_scalar(bits *b, const op *o) {
  switch (o->kind) {
  case OP_LITERAL: return o->value;
  case OP_FIXED: return rd(b, (unsigned)o->value);
  case OP_VBR: return vbr(b, (unsigned)o->value);
  case OP_CHAR6: return rd(b, 6);
  default: b->bad = true; return 0;
  }
}

/* An abbreviated record; *code and *first get its first two values. */
static void read_record(bits *b, const abbrev *a, uint64_t *code, uint64_t *first) {
  unsigned seen = 0;
  for (unsigned i = 0; i < a->n && !b->bad; i++) {
    const op *o = &a->ops[i];
    if (o->kind == OP_ARRAY) {
      if (i + 1 >= a->n || a->ops[i + 1].kind == OP_ARRAY || a->ops[i + 1].kind == OP_BLOB) {
        b->bad = true;
        return;
      }
      uint64_t len = vbr(b, 6);
      for (uint64_t k = 0; k < len && !b->bad; k++) {
        uint64_t v = read_scalar(b, &a->ops[i + 1]);
        if (seen == 0)
          *code = v;
        else if (seen == 1)
          *first = v;
        seen++;
      }
      i++;
    } else if (o->kind == OP_BLOB) {
      uint64_t len = vbr(b, 6);
      align32(b);
      if (len > (UINT64_MAX >> 4)) {
        b->bad = true;
        return;
      }
      skip_bits(b, len * 8);
      align32(b);
      seen++;
    } else {
      uint64_t v = read_scalar(b, o);
      if (seen == 0)
        *code = v;
      else if (seen == 1)
        *first = v;
      seen++;
    }
  }
}

static abbrevs *info_for(walk *w, uint64_t bid) {
  for (size_t i = 0; i < w->ninfo; i++)
    if (w->info[i].bid == bid)
      return &w->info[i].list;
  w->info = wl_xrealloc(w->info, (w->ninfo + 1) * sizeof *w->info);
  memset(&w->info[w->ninfo], 0, sizeof *w->info);
  w->info[w->ninfo].bid = bid;
  return &w->info[w->ninfo++].list;
}

/* The BLOCKINFO block: abbreviations for other blocks (SETBID records). */
static void read_blockinfo(walk *w, unsigned width) {
  bits *b = &w->b;
  abbrevs *cur = NULL;
  while (!b->bad) {
    uint64_t id = rd(b, width);
    if (id == END_BLOCK) {
      align32(b);
      return;
    }
    if (id == ENTER_SUBBLOCK) {
      vbr(b, 8);
      vbr(b, 4);
      align32(b);
      skip_bits(b, rd(b, 32) * 32);
    } else if (id == DEFINE_ABBREV) {
      abbrev a;
      read_abbrev(b, &a);
      if (!cur)
        b->bad = true;
      else if (!b->bad)
        push_abbrev(cur, &a);
    } else if (id == UNABBREV_RECORD) {
      uint64_t code = vbr(b, 6), n = vbr(b, 6), first = 0;
      for (uint64_t i = 0; i < n && !b->bad; i++) {
        uint64_t v = vbr(b, 6);
        if (i == 0)
          first = v;
      }
      if (code == 1 /* SETBID */ && n >= 1)
        cur = info_for(w, first);
    } else {
      b->bad = true;
    }
  }
}

/* The records of one block (its sub-blocks skipped by their length). */
static void read_block(walk *w, uint64_t bid, unsigned width) {
  bits *b = &w->b;
  abbrevs local = {0};
  const abbrevs *given = info_for(w, bid);
  size_t ngiven = given->n;
  while (!b->bad) {
    uint64_t id = rd(b, width);
    if (id == END_BLOCK) {
      align32(b);
      break;
    }
    if (id == ENTER_SUBBLOCK) {
      vbr(b, 8);
      vbr(b, 4);
      align32(b);
      skip_bits(b, rd(b, 32) * 32);
      continue;
    }
    if (id == DEFINE_ABBREV) {
      abbrev a;
      read_abbrev(b, &a);
      if (!b->bad)
        push_abbrev(&local, &a);
      continue;
    }
    uint64_t code = 0, first = 0, code_pos = b->pos;
    if (id == UNABBREV_RECORD) {
      code = vbr(b, 6);
      uint64_t code_bits = b->pos - code_pos;
      uint64_t n = vbr(b, 6);
      for (uint64_t i = 0; i < n && !b->bad; i++) {
        uint64_t v = vbr(b, 6);
        if (i == 0)
          first = v;
      }
      int l = bid == AST_BLOCK_ID ? list_of(code) : -1;
      if (l >= 0) {
        w->list_count[l]++;
        w->list_pos[l] = code_pos;
        if (code_bits != lists[l].bits)
          w->unexpected = true;
      }
    } else {
      uint64_t k = id - 4;
      const abbrev *a = k < ngiven             ? &given->v[k]
                        : k - ngiven < local.n ? &local.v[k - ngiven]
                                               : NULL;
      if (!a) {
        b->bad = true;
        break;
      }
      read_record(b, a, &code, &first);
      if (bid == AST_BLOCK_ID && list_of(code) >= 0)
        w->unexpected = true; /* an abbreviated list: its code may be a literal */
    }
    if (bid == CONTROL_BLOCK_ID && code == METADATA && !w->major)
      w->major = first;
  }
  free(local.v);
}

/* wl_pch_trim; span[l] gets the first and last byte changed for list l
 * (first > last: unchanged). */
static wl_pch_trim_result trim(unsigned char *data, size_t len, size_t span[NLISTS][2]) {
  for (size_t l = 0; l < NLISTS; l++) {
    span[l][0] = 1;
    span[l][1] = 0;
  }
  if (len < 8 || memcmp(data, "CPCH", 4) != 0 || len > (SIZE_MAX >> 4))
    return WL_PCH_UNKNOWN_FILE;
  walk w;
  memset(&w, 0, sizeof w);
  w.b.d = data;
  w.b.n = (uint64_t)len * 8;
  w.b.pos = 32;
  /* the top level: blocks only, abbreviation width 2 */
  while (!w.b.bad && w.b.pos + 32 <= w.b.n) {
    if (rd(&w.b, 2) != ENTER_SUBBLOCK)
      break;
    uint64_t bid = vbr(&w.b, 8);
    unsigned width = (unsigned)vbr(&w.b, 4);
    align32(&w.b);
    uint64_t words = rd(&w.b, 32);
    if (w.b.bad || words > (w.b.n - w.b.pos) / 32 || width < 2 || width > 32) {
      w.b.bad = true;
      break;
    }
    uint64_t end = w.b.pos + words * 32;
    if (bid == 0)
      read_blockinfo(&w, width);
    else if (bid == AST_BLOCK_ID || bid == CONTROL_BLOCK_ID)
      read_block(&w, bid, width);
    if (!w.b.bad && w.b.pos > end)
      w.b.bad = true;
    w.b.pos = end;
  }
  bool bad = w.b.bad;
  for (size_t i = 0; i < w.ninfo; i++)
    free(w.info[i].list.v);
  free(w.info);
  if (bad || w.major != WL_PCH_AST_MAJOR || w.unexpected)
    return WL_PCH_UNKNOWN_FILE;
  bool any = false;
  for (size_t l = 0; l < NLISTS; l++) {
    if (w.list_count[l] > 1)
      return WL_PCH_UNKNOWN_FILE;
    any = any || w.list_count[l];
  }
  if (!any)
    return WL_PCH_NO_LIST;
  for (size_t l = 0; l < NLISTS; l++) {
    if (!w.list_count[l])
      continue;
    /* the replacement in VBR6: 5-bit chunks, all but the last with the
     * continuation bit */
    uint64_t p = w.list_pos[l];
    span[l][0] = (size_t)(p >> 3);
    span[l][1] = (size_t)((p + lists[l].bits - 1) >> 3);
    unsigned nchunks = lists[l].bits / 6, v = lists[l].replacement;
    for (unsigned c = 0; c < nchunks; c++, v >>= 5) {
      unsigned chunk = (v & 31u) | (c + 1 < nchunks ? 32u : 0u);
      for (unsigned i = 0; i < 6; i++, p++) {
        unsigned char mask = (unsigned char)(1u << (p & 7));
        if ((chunk >> i) & 1u)
          data[p >> 3] |= mask;
        else
          data[p >> 3] &= (unsigned char)~mask;
      }
    }
  }
  return WL_PCH_TRIMMED;
}

wl_pch_trim_result wl_pch_trim(unsigned char *data, size_t len) {
  size_t span[NLISTS][2];
  return trim(data, len, span);
}

bool wl_pch_trim_file(const char *path, wl_pch_trim_result *result) {
  *result = WL_PCH_UNKNOWN_FILE;
  size_t len = 0;
  char *text = wl_read_file(path, &len);
  if (!text) /* unreadable or too large: left as it is, still a valid file */
    return true;
  bool ok = true;
  size_t span[NLISTS][2];
  *result = trim((unsigned char *)text, len, span);
  if (*result == WL_PCH_TRIMMED) {
    /* only the changed bytes are written */
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    ok = fd >= 0;
    for (size_t l = 0; ok && l < NLISTS; l++)
      if (span[l][0] <= span[l][1])
        ok = pwrite(fd, text + span[l][0], span[l][1] - span[l][0] + 1, (off_t)span[l][0]) ==
             (ssize_t)(span[l][1] - span[l][0] + 1);
    if (fd >= 0 && close(fd) != 0)
      ok = false;
  }
  free(text);
  return ok;
}
