/* batches.h - lowering a large file in batches (batches.c): the plan (which
 * batch each recorded function goes to) and the run. Only parse.c uses it. */
#ifndef WARPLINT_BATCHES_H
#define WARPLINT_BATCHES_H

#include "lower.h"

typedef struct lower_batches {
  size_t nunits;
  unsigned *batch; /* [nunits]: the batch of each unit of L->units */
  unsigned nbatches;
  /* what L held before the units were lowered: restored after each batch */
  size_t ncalls;   /* calls in the globals' initializers */
  size_t nfuncs;   /* functions in them (lambdas) */
  size_t nglobals; /* globals */
  seen_inst **insts;
  size_t ninsts; /* instantiations named by declarations */
} lower_batches;

/* Lowers each unit of L->units once (freeing it at once), groups the units
 * that name one another and packs the groups into batches of about
 * batch_bytes of IR. */
void lower_plan_batches(lower_ctx *L, size_t batch_bytes, lower_batches *b);
/* Lowers each batch, links it, calls on_batch with L->tu holding its
 * functions (and the globals), then frees it. */
void lower_run_batches(lower_ctx *L, const lower_batches *b, void (*on_batch)(wl_tu *, void *),
                       void *ud);
void lower_batches_free(lower_batches *b);

#endif
