/* pch_std.h - the C and C++ standard headers in the shared precompiled
 * header (pch.h): most CUDA sources include some of <cstdio>, <cstdlib>,
 * <cmath>, <iostream>, <vector>, <string>, <algorithm>..., and parsing them
 * again for every file was most of a tree's time. The shared precompiled
 * header then also holds a fixed list of them (wl_pch_std_text), and a file
 * parsed with it sees their declarations and macros whether it includes them
 * or not. wl_pch_std_differs says when that may change what the file means;
 * the caller (parse.c) then parses the file again with the plain
 * precompiled header, so that the findings are those of a run without the
 * standard headers (--no-std-pch). Used by parse.c only. */
#ifndef WARPLINT_PCH_STD_H
#define WARPLINT_PCH_STD_H

#include <clang-c/Index.h>
#include <stdbool.h>

#include "buf.h"

/* The lines appended to the precompiled header's main file (a comment line,
 * then one #include per header). */
const char *wl_pch_std_text(void);

/* With a toolkit, for a file that includes a header of the CUDA C++ core
 * libraries (thrust/, cub/, cuda/): lines appended to t after the standard
 * headers' (the same section, checked the same way), each header guarded
 * by __has_include. Thrust and cub are 100,000 lines of templates that
 * such a file parses and instantiates (2-4 s); the precompiled header that
 * holds them is built with their function bodies skipped
 * (WL_PCH_SKIP_BODIES), which no analysis reads (warplint lowers only the
 * functions of the project's own files), so that a file's calls of them
 * instantiate declarations only (0.1-0.3 s). */
void wl_pch_cccl_append(wl_buf *t);

/* What the precompiled header `pch` (built from the main file `header`
 * whose standard-header section starts at line `first_line`) holds: which
 * of its files and macros only that section brought in, and the include
 * graph between them. cccl: the section holds wl_pch_cccl_append's headers,
 * which test macros without a value (#ifdef THRUST_DEBUG, CUB_STDERR) that
 * are not the standard library's configuration macros: then any macro
 * defined before a section header's first inclusion whose name the
 * section's files use counts, not only those with a body. NULL when the
 * file cannot be read (then every file is parsed again without it). */
typedef struct wl_pch_std wl_pch_std;
wl_pch_std *wl_pch_std_load(CXIndex index, const char *pch, const char *header, unsigned first_line,
                            bool cccl);
void wl_pch_std_free(wl_pch_std *s);

/* What wl_pch_std_load computed, as bytes (wire.h) to keep beside the
 * stored precompiled header (pch.h, wl_pch_companion_write): reading the
 * header back and visiting its preprocessing record costs more than the
 * parse of a small file. wl_pch_std_restore gives the same map back; NULL
 * when the bytes are not such a map for first_line and cccl (another
 * version, truncated, or an index out of range). */
void wl_pch_std_save(const wl_pch_std *s, unsigned first_line, wl_buf *out);
wl_pch_std *wl_pch_std_restore(const void *bytes, size_t len, unsigned first_line, bool cccl);

/* Whether a translation unit parsed with that precompiled header may mean
 * something else than without its standard headers: one of its files
 * names a declaration or a macro that only standard headers it does not
 * include (directly or through others) declare; an error or one of its
 * notes lies in such a header (a clash with the file's own declarations);
 * it defines, before a standard header's first inclusion, a configuration
 * macro (NDEBUG, _GNU_SOURCE...) or a macro whose name the standard headers
 * use, or a macro one of them defines; or it first includes one inside a
 * declaration (a namespace, extern "C"). In the body of a host function
 * that no analysis reads (it reaches no launch, holds no lambda or device
 * code, is not constexpr: pch_std.c, unread_host_body), an overloaded name
 * counts only when the unit reaches none of its candidates. why (when not
 * NULL) gets the reason, the name, where it is declared and where the unit
 * names it. s is not shared between threads (it keeps the standard
 * headers' identifiers once read). */
bool wl_pch_std_differs(wl_pch_std *s, CXTranslationUnit tu, wl_buf *why);

/* wl_pch_std_differs for only the section files that the headers `names`
 * (as included: "cub/cub.cuh") include, directly or not, the others read
 * as the unit's own: what a unit parsed with those headers alone in the
 * section would likely be found to name early (a forecast, not a proof:
 * that unit is another parse). False when a name is not in the section. */
bool wl_pch_std_differs_within(wl_pch_std *s, CXTranslationUnit tu, const char *const *names,
                               size_t n, wl_buf *why);

/* Whether a conditional directive (#if, #ifdef, #ifndef, #elif...) or an
 * #include by macro of the unit's own files names a macro that only the
 * standard headers of the section define: only then can the headers a
 * file includes, and so which of its includes do not resolve, depend on
 * the section (declarations cannot change what the preprocessor reads). */
bool wl_pch_std_conditions_read(const wl_pch_std *s, CXTranslationUnit tu);

/* Whether `call` is an operator expression in a template (`a * b`, `-x`,
 * `*p`, `i++`), an operand of a dependent type, that clang keeps as a call
 * of `operatorX` whose candidates include the toolkit's half-precision
 * operators (cuda_fp16.hpp, cuda_bf16.hpp: what cub and the toolkit's
 * library headers bring; wl_half_candidate). Lowering reads such a call
 * as if they were not among its candidates (lower.c, lower_call): with
 * none left, as the dependent built-in operator on the same operands that
 * clang builds when it finds no candidate; else as the call of the others.
 * Which of those operators were visible, if any, then changes nothing
 * warplint reads, so the check does not count them either (kaldi's
 * io-funcs-inl.h, cudpp's cudpp_util.h, read before the file includes
 * cub). *h: the child naming the operators, the operands (the 0 clang adds
 * to a postfix ++ or -- left out), the operator (WL_B_* of a binary one,
 * else WL_U_*) and the number of the other candidates. A call written
 * `operator*(a, b)` is not one. */
typedef struct wl_half_op {
  CXCursor callee;
  CXCursor operands[2];
  unsigned noperands, nother;
  bool unary;
  int op;
} wl_half_op;
bool wl_half_operator_call(CXCursor call, wl_half_op *h);
/* A function declared in cuda_fp16.hpp or cuda_bf16.hpp of the toolkit. */
bool wl_half_candidate(CXCursor decl);

/* A __device__ or __global__ declaration (its attributes are children);
 * shared with lowering. */
bool wl_device_decl(CXCursor d);
/* The name of the configuration call clang keeps for a kernel launch
 * (`k<<<g, b>>>()`): __cudaPushCallConfiguration, or cudaConfigureCall
 * before CUDA 9.2 and in warplint's declarations. */
bool wl_launch_config_name(const char *name);

#endif
