/* shared.h - shared-memory access analysis: which expressions denote
 * __shared__ storage, which element each lane of a warp touches, and which
 * pairs of accesses by two different lanes of one warp may touch the same
 * element with no barrier between them (a warp-level race).
 *
 * How it works (shared/: domain.c, races.c, eval.c, exec.c, roots.c, api.c;
 * internal.h has the types they share): every kernel (and every device function that no
 * function of the TU calls) is executed abstractly, path by path, with calls
 * of functions defined in the TU inlined (pointer and reference parameters
 * carry shared storage from the caller; integer parameters carry the caller's
 * lane forms). Integer values are lane forms (affine.h); a pointer into shared
 * memory is (storage, element offset as a lane form). Every access remembers
 * the branch conditions that lead to it, which decide the lanes that reach
 * it. Since the last barrier (__syncwarp, __syncthreads, cooperative-groups
 * sync) each path keeps its pending accesses; a new access is compared with
 * them and with itself executed by the other lanes. Loops with constant trip
 * counts are unrolled; others run twice with fresh symbols for what the loop
 * changes, so one iteration's accesses meet the next one's.
 *
 * Assumptions (documented in rules/missing-syncwarp.md): in a kernel that
 * uses only threadIdx.x, blockDim.x is a positive multiple of 32, so a warp
 * is 32 consecutive threadIdx.x (threadIdx.x == 32*W + lane, blockDim.x ==
 * 32*K, and threadIdx.x < blockDim.x gives 0 <= W <= K - 1). In a kernel
 * that uses threadIdx.y or .z, the linear id threadIdx.y * blockDim.x +
 * threadIdx.x (+ threadIdx.z * blockDim.x * blockDim.y) is 32*W + lane (the
 * hardware cuts the linear order into warps); threadIdx.x/y/z alone are
 * unknown lane-dependent values there (a bounds test of one against a
 * host-chosen number lets every lane through for a bound large enough). A
 * device function no function of the file calls is analyzed under the
 * legacy convention its body states: an
 * integer parameter used as an index alone and moved (p[i], p[i + k]) is the
 * thread's index with whole warps calling; pointer parameters indexed in the
 * body, references to structs and the pointer members of structs passed by
 * value are memory of unknown space (WL_MEM_UNKNOWN), whose elements that
 * are the same in every lane are compared only as a broadcast (a store by
 * part of the warp, chosen by the lane, and a read) or with elements the
 * lane chooses. A function template is analyzed once per instantiation
 * seen in the file (explicit ones, launches and calls), else with its
 * non-type parameters as host-chosen numbers; x / T for a host-chosen T (a
 * lane's group) is taken as warp-uniform. A call whose body is not visible
 * and that receives shared memory may hold a barrier (so may an expression
 * clang could not resolve whose text passes a __shared__ variable as an
 * argument: a library call whose headers are missing); a pending access is
 * dropped on a warp-uniform branch its own conditions contradict (a barrier
 * skipped only where no lane made it); a warp collective of
 * CUDA 9+ orders reads before it with stores after it. A lane that stores a
 * value that may differ between lanes to p[d], d read from memory, and
 * reads p[d] back races with any lane of equal d (tagged histograms).
 * Where the analysis cannot be exact it stays quiet: host-chosen numbers
 * (kernel and template arguments) keep the lanes of a warp apart, an unknown
 * factor of the lane is not zero, and two lanes that both have to pass
 * conditions it cannot evaluate per lane are not paired (see smr_check_pair
 * in shared/races.c). Two lanes storing to one element are a race only when the stored
 * values are known to differ between them (their lane forms differ: s[0] =
 * threadIdx.x); a value with no lane form (a call's result such as
 * cg::reduce, a shuffle, a load, a float) is taken to be the same in every
 * lane, as a warp reduction's result is (llm.c's shared_sum[warp_id] =
 * cg::reduce(warp, ...) with no lane guard). A kernel's own pointer
 * parameters (global memory) are not analyzed. */
#ifndef WARPLINT_SHARED_H
#define WARPLINT_SHARED_H

#include <stdbool.h>
#include <stddef.h>

#include "ir.h"

typedef struct wl_smem wl_smem;

/* Where the memory of an access lives. */
typedef enum wl_mem_space {
  WL_MEM_SHARED = 0, /* a __shared__ variable (or extern __shared__ storage) */
  WL_MEM_UNKNOWN     /* through a pointer or reference parameter of a device function
                        that no function of the file calls */
} wl_mem_space;

/* One access of shared memory, or of memory of unknown space (an lvalue read
 * or written). */
typedef struct wl_smem_access {
  const wl_expr *expr;   /* the lvalue: s[i], *p, p->x, a scalar __shared__ variable */
  const wl_stmt *stmt;   /* innermost statement being executed when it happened */
  const wl_func *func;   /* function whose body holds expr */
  const wl_var *storage; /* the __shared__ variable (for dynamic shared memory: an extern one),
                            or the parameter the memory was reached through */
  wl_mem_space space;
  bool write;
  bool is_volatile; /* through a volatile lvalue */
  bool index_known; /* the element is a lane form (else the access is never compared) */
  /* the access is the whole body of a small load or store helper (`{ *(volatile
   * T *)p = v; }`, `{ return *(volatile T *)p; }`, helpers of such helpers):
   * the call of the outermost such helper, in the function that called it,
   * where the access is reported; NULL for an access of a function's own code */
  const wl_expr *site;
} wl_smem_access;

/* Two accesses by different lanes of one warp that may touch the same element,
 * at least one a write, with no barrier between them on some path. */
typedef struct wl_smem_race {
  wl_smem_access first;  /* happened first (where the note goes) */
  wl_smem_access second; /* reads or clobbers the other lane's value (where the finding goes) */
  int lane_first, lane_second; /* an example: lane_first does `first`, lane_second `second` */
  bool element_known;          /* element below is exact for that example */
  long long element;           /* index in elements of the storage (row-major for arrays) */
  bool loop_carried;           /* first comes from an earlier iteration of a loop */
  bool concurrent_branches;    /* the two are in the two arms of a lane-dependent branch */
  bool data_index;             /* the element is chosen by a value read from memory: the
                                  lanes meet when their values are equal */
  bool scatter;                /* second stores to an element a value read from memory
                                  chooses, which may be the one first (another lane) reads */
  const wl_func *root;         /* the kernel (or uncalled device function) analyzed */
  const wl_expr *call;         /* the call in root through which it happens; NULL if in root */
} wl_smem_race;

/* Builds the analysis of a TU (never NULL). */
wl_smem *wl_smem_build(const wl_tu *tu);
void wl_smem_free(wl_smem *sm);
/* Whether sm, built for tu viewed as its main file, is also the analysis of
 * tu as it is viewed now: a reported header's view (analyze.c gives the
 * rules the unit with the header's path and text as the file analyzed). The
 * analysis reads the unit's functions, which do not change with the view,
 * and, in two places, the text of the file an expression lies in: an
 * unresolved expression's (eval.c, unresolved_on_shared: the main file's
 * text only in its own view) and a cast's spelling (cast_ptr: only in the
 * file viewed as the main one). Where the main file's view read its text
 * and found something, or would not read a header's text that the header's
 * view reads, the answer is no; else every decision of the analysis is the
 * same in both views, and so is what it finds. */
bool wl_smem_serves_view(const wl_smem *sm, const wl_tu *tu);

size_t wl_smem_nraces(const wl_smem *sm);
const wl_smem_race *wl_smem_race_at(const wl_smem *sm, size_t i);
/* Distinct accesses (expression and direction) found, in discovery order. */
size_t wl_smem_naccesses(const wl_smem *sm);
const wl_smem_access *wl_smem_access_at(const wl_smem *sm, size_t i);
/* Whether an lvalue expression was found to denote shared storage. */
bool wl_smem_is_shared(const wl_smem *sm, const wl_expr *e);
/* Whether the analysis gave up on some function (work budget): races may be missing. */
bool wl_smem_incomplete(const wl_smem *sm);
/* The functions whose analysis stopped at its work budget (steps, scans):
 * the races found up to there are kept (each was found on a path executed
 * up to that point, which a later statement cannot make safe), the rest of
 * the function is not analyzed. */
size_t wl_smem_nexhausted(const wl_smem *sm);
const wl_func *wl_smem_exhausted_at(const wl_smem *sm, size_t i);
/* The work the analysis did: lane pairs examined by the race checker, over
 * every analyzed function (bounded per function by its work budget). */
unsigned long wl_smem_pairs_examined(const wl_smem *sm);
/* The most memory the analysis of one function held (its arena's bytes;
 * bounded by the work budget). */
size_t wl_smem_arena_peak(const wl_smem *sm);
/* The bytes that unrolling attempts which failed gave back (every analyzed
 * function together): an attempt that stops (too many iterations, a
 * condition not known in every lane, its own budget) frees what it made,
 * unless it recorded a return (the function's frame keeps that state). */
size_t wl_smem_arena_given_back(const wl_smem *sm);

#endif
