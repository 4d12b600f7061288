/* ir.h - warplint's own small IR of a translation unit.
 *
 * parse.c lowers each function's libclang cursor tree into these structs once;
 * analyses (lanes, shared, consteval) and rules only ever see this IR, never
 * libclang. All nodes live in the translation unit's arena and die with it.
 */
#ifndef WARPLINT_IR_H
#define WARPLINT_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"

typedef struct wl_loc {
  const char *file; /* interned path as clang names it (main file: as given) */
  unsigned line, col, offset;
} wl_loc;

typedef struct wl_range {
  wl_loc begin, end; /* end is one past the last character */
} wl_range;

/* Macro-expansion information of a node that comes out of a macro. */
typedef struct wl_macro_info {
  const char *name; /* outermost macro's name, NULL when unknown */
  wl_loc expansion; /* where the macro is used (file location) */
  wl_loc spelling;  /* where the node's text is written (macro definition) */
} wl_macro_info;

typedef enum wl_expr_kind {
  WL_E_OTHER = 0, /* anything else; children are kept in args */
  WL_E_INT,       /* integer or character literal: ival */
  WL_E_FLOAT,     /* floating literal: fval */
  WL_E_BOOL,      /* true/false: ival */
  WL_E_STRING,    /* string literal: name holds the spelling */
  WL_E_REF,       /* reference to a variable, parameter, function or enumerator */
  WL_E_CALL,      /* call: name = callee name, args = arguments */
  WL_E_BINARY,    /* binary operator (assignments included): args[0], args[1] */
  WL_E_UNARY,     /* unary operator: args[0] */
  WL_E_COND,      /* c ? a : b: args[0..2] */
  WL_E_INDEX,     /* a[i]: args[0] = base, args[1] = index */
  WL_E_MEMBER,    /* a.m / a->m: args[0] = base (NULL for implicit this), name = m */
  WL_E_CAST,      /* explicit or implicit conversion: args[0] */
  WL_E_INITLIST,  /* {a, b, ...}: args */
  WL_E_LAMBDA,    /* lambda: lambda = lowered function */
  WL_E_SIZEOF,    /* sizeof/alignof: may carry ival when folded by clang */
  WL_E_THIS
} wl_expr_kind;

typedef enum wl_binop {
  WL_B_NONE = 0,
  WL_B_MUL,
  WL_B_DIV,
  WL_B_REM,
  WL_B_ADD,
  WL_B_SUB,
  WL_B_SHL,
  WL_B_SHR,
  WL_B_LT,
  WL_B_GT,
  WL_B_LE,
  WL_B_GE,
  WL_B_EQ,
  WL_B_NE,
  WL_B_AND,
  WL_B_XOR,
  WL_B_OR,
  WL_B_LAND,
  WL_B_LOR,
  WL_B_ASSIGN,
  WL_B_MUL_ASSIGN,
  WL_B_DIV_ASSIGN,
  WL_B_REM_ASSIGN,
  WL_B_ADD_ASSIGN,
  WL_B_SUB_ASSIGN,
  WL_B_SHL_ASSIGN,
  WL_B_SHR_ASSIGN,
  WL_B_AND_ASSIGN,
  WL_B_XOR_ASSIGN,
  WL_B_OR_ASSIGN,
  WL_B_COMMA,
  WL_B_PTRMEM
} wl_binop;

typedef enum wl_unop {
  WL_U_NONE = 0,
  WL_U_POSTINC,
  WL_U_POSTDEC,
  WL_U_PREINC,
  WL_U_PREDEC,
  WL_U_ADDROF,
  WL_U_DEREF,
  WL_U_PLUS,
  WL_U_MINUS,
  WL_U_NOT /* ~ */,
  WL_U_LNOT /* ! */,
  WL_U_OTHER
} wl_unop;

/* Type facts the analyses need; computed from clang's types at lowering. */
enum {
  WL_T_POINTER = 1u << 0,   /* pointer (after typedefs) */
  WL_T_ARRAY = 1u << 1,     /* array */
  WL_T_REFERENCE = 1u << 2, /* lvalue/rvalue reference */
  WL_T_VOLATILE = 1u << 3,  /* volatile object or pointee/element */
  WL_T_INTEGER = 1u << 4,
  WL_T_UNSIGNED = 1u << 5,
  WL_T_FLOATING = 1u << 6,
  WL_T_CONST = 1u << 7,
  WL_T_DEPENDENT = 1u << 8, /* template-dependent or unresolved */
  WL_T_INVALID = 1u << 9,   /* clang could not resolve it */
  WL_T_ENUM = 1u << 10      /* an enumeration (WL_T_INTEGER too) */
};

typedef struct wl_var wl_var;
typedef struct wl_func wl_func;
typedef struct wl_expr wl_expr;
typedef struct wl_stmt wl_stmt;

struct wl_expr {
  wl_expr_kind kind;
  int op;         /* wl_binop or wl_unop */
  unsigned type;  /* WL_T_* flags of the expression's type */
  unsigned bytes; /* sizeof the expression's type when known, else 0 */
  /* a pointer or array: sizeof its scalar element (the pointee or element
   * with array extents stripped: 16 for uint4 *, 4 for unsigned (*)[20]),
   * structs included; 0 when not known or not a pointer or array */
  unsigned elem_bytes;
  wl_range range;             /* file range (expansion locations when from a macro) */
  wl_loc loc;                 /* the node's own location (a call: start of callee name) */
  const wl_macro_info *macro; /* non-NULL when the node comes from a macro */
  const char *name;           /* REF/MEMBER/CALL name, STRING spelling */
  const char *cast_type;      /* CAST to a pointer: clang's spelling of the type, else NULL */
  wl_var *var;                /* REF to a variable or parameter */
  /* CALL: callee facts */
  wl_expr *callee_expr; /* CALL: the callee expression (REF, MEMBER with the object, ...) */
  wl_func *callee;      /* callee defined in this TU, else NULL */
  /* clang's USR of the callee declaration; REF naming a function as a
   * value (a kernel passed to a launch wrapper): the function's, or its
   * template's (lower.c ref_function) */
  const char *callee_usr;
  /* CALL of a function template's specialization: the specialization's own
   * USR, which spells the template arguments (blockReduce<#@F@warpReduceSum#f#>) */
  const char *callee_spec_usr;
  /* CALL naming template arguments (`warpSegScan<T, traits, false, 5>(...)`,
   * in a template too): each argument's expression in order, NULL for a
   * type or one not lowered; not among args (visitors do not walk them) */
  wl_expr **targs;
  unsigned ntargs;
  /* CALL of a member of a class template named through a dependent
   * qualifier (`Iterate<1, (1 << STEPS)>::Scan(...)` in a member of an
   * enclosing class template), which clang leaves unresolved: the class
   * template's USR, its template parameters' names in order (nctparams),
   * and the arguments the qualifier names, as targs (nctargs <= nctparams);
   * NULL / 0 for any other call */
  const char *callee_class_usr;
  const char **ctparams;
  unsigned nctparams;
  wl_expr **ctargs;
  unsigned nctargs;
  wl_loc callee_decl;     /* where the callee is declared */
  bool callee_in_prelude; /* declared by warplint's CUDA prelude or a toolkit header */
  bool callee_is_method;  /* member call (obj.f()) */
  bool arrow;             /* MEMBER: '->' */
  bool has_ival;          /* ival is a known integral value */
  long long ival;
  double fval;
  wl_func *lambda; /* LAMBDA */
  /* CALL that is a kernel launch `k<<<grid, block, ...>>>(...)`: the launch
   * configuration, a CALL whose args are grid, block (and the shared-memory
   * size and stream where written); NULL for any other call. Not one of
   * args: visitors do not walk it. */
  wl_expr *config;
  wl_expr **args;
  unsigned nargs;
};

typedef enum wl_stmt_kind {
  WL_S_OTHER = 0,
  WL_S_COMPOUND,  /* kids */
  WL_S_EXPR,      /* expr */
  WL_S_DECL,      /* vars (their init is var->init) */
  WL_S_IF,        /* init (C++17 init-statement, may be NULL), expr = cond, then_s, else_s */
  WL_S_FOR,       /* init, expr = cond (may be NULL), inc, then_s = body */
  WL_S_RANGE_FOR, /* vars[0] = loop variable, expr = range, then_s = body */
  WL_S_WHILE,     /* expr = cond, then_s = body */
  WL_S_DO,        /* then_s = body, expr = cond */
  WL_S_SWITCH,    /* expr = cond, then_s = body */
  WL_S_CASE,      /* expr = value, then_s = sub-statement */
  WL_S_DEFAULT,   /* then_s = sub-statement */
  WL_S_LABEL,     /* name, then_s = sub-statement */
  WL_S_GOTO,      /* name */
  WL_S_BREAK,
  WL_S_CONTINUE,
  WL_S_RETURN, /* expr may be NULL */
  WL_S_ASM,    /* asm_text = concatenated template strings */
  WL_S_NULL
} wl_stmt_kind;

struct wl_stmt {
  wl_stmt_kind kind;
  wl_range range;
  const wl_macro_info *macro;
  wl_expr *expr;
  wl_stmt *init;
  wl_expr *inc;
  wl_stmt *then_s, *else_s;
  wl_stmt **kids;
  unsigned nkids;
  wl_var **vars;
  unsigned nvars;
  const char *name;          /* LABEL/GOTO */
  const char *asm_text;      /* ASM */
  wl_range asm_range;        /* ASM: range of the first template string */
  wl_range *asm_pieces;      /* ASM: range of each template string literal, in order */
  unsigned *asm_piece_start; /* ASM: offset in asm_text where each piece starts */
  unsigned nasm_pieces;
  /* WL_S_DECL holding a static_assert: its condition (clang's expression,
   * folded where it can be); not among the visited nodes (visitors do not
   * walk it), NULL for any other statement */
  wl_expr *assert_cond;
  /* the statement holding it as then_s, else_s or a kid, and the function
   * whose body holds it: set for a whole body by its first wl_stmt_parent
   * (read that, not these) */
  wl_stmt *parent;
  const wl_func *in_func;
};

enum {
  WL_V_PARAM = 1u << 0,
  WL_V_GLOBAL = 1u << 1, /* namespace-scope or static storage */
  WL_V_SHARED = 1u << 2, /* __shared__ */
  WL_V_EXTERN = 1u << 3,
  WL_V_CONSTANT = 1u << 4, /* __constant__ */
  WL_V_DEVICE = 1u << 5,   /* __device__ variable */
  WL_V_STATIC = 1u << 6,
  WL_V_CONSTEXPR = 1u << 7,
  WL_V_FIELD = 1u << 8 /* a struct member (not used as a variable) */
};

struct wl_var {
  const char *name;
  const char *usr;
  wl_loc loc;
  unsigned flags; /* WL_V_* */
  unsigned type;  /* WL_T_* of the declared type */
  const char *type_spelling;
  int param_index; /* WL_V_PARAM: 0-based */
  wl_expr *init;   /* initializer, NULL when none */
  bool has_ival;   /* const-qualified integral with a foldable initializer */
  long long ival;
  unsigned dims[4]; /* array extents (0 when unknown / not an array) */
  unsigned ndims;
  /* a local or parameter: the expressions that may change it (wl_assigned_var)
   * in the body of assigned_in, counted once per function by
   * wl_count_assignments; assigned_many when more than one function's body
   * changes it */
  const wl_func *assigned_in;
  unsigned nassigned;
  bool assigned_many;
};

enum {
  WL_F_GLOBAL = 1u << 0, /* __global__ kernel */
  WL_F_DEVICE = 1u << 1, /* __device__ */
  WL_F_HOST = 1u << 2,   /* __host__ (explicit or implicit) */
  WL_F_LAMBDA = 1u << 3,
  WL_F_TEMPLATE = 1u << 4, /* body of a template (each source site once) */
  WL_F_METHOD = 1u << 5,
  WL_F_STATIC = 1u << 6 /* a static member function */
};

/* One instantiation of a function template seen in the TU (an explicit
 * instantiation, or a call or launch naming its arguments): the value of each
 * template parameter, where it is an integer. */
typedef struct wl_tinst {
  long long *vals;      /* [ntparams] */
  unsigned char *known; /* [ntparams]: 1 where vals[i] is an integral argument */
} wl_tinst;

struct wl_func {
  const char *name;
  const char *usr;
  unsigned flags;    /* WL_F_* */
  unsigned ret_type; /* WL_T_* of the declared result type */
  wl_loc loc;
  wl_range range;
  wl_var **params;
  unsigned nparams;
  wl_stmt *body;
  wl_func *parent; /* for lambdas: the enclosing function */
  /* a function template: its template parameters' names in order, and the
   * distinct instantiations seen in the TU (at most WL_MAX_TINSTS) */
  const char **tparams;
  unsigned ntparams;
  /* [ntparams]: the default argument of each non-type template parameter
   * (`template <bool useWarpSync = false>`), NULL where it has none */
  wl_expr **tparam_defaults;
  wl_tinst *tinsts;
  unsigned ntinsts;
  /* an instantiation clang made (a member of a class template
   * specialization, a function template specialization): the USR of the
   * template code it comes from; NULL for anything else */
  const char *pattern_usr;
  /* a constructor: its member initializers (`: grid(g), block(b)`), the
   * member's name and its initializer (in terms of the parameters), in
   * order; not among the visited nodes */
  const char **minit_names;
  wl_expr **minit_exprs;
  unsigned nminits;
  /* wl_count_assignments has counted what its body changes (wl_var.nassigned) */
  bool assigns_counted;
  /* wl_stmt_parent has set its statements' parents (wl_stmt.parent) */
  bool parents_set;
};
#define WL_MAX_TINSTS 8
/* Statements and expressions nested deeper than this are not lowered: the
 * function holding them is left out of the IR with a notice, so that no
 * recursion over the IR (lowering, constant folding, the analyses, the
 * emitters) is deeper than the input allows. */
#define WL_MAX_NESTING 1000

/* A problem clang reported while parsing (errors and fatal errors). */
typedef struct wl_parse_diag {
  wl_loc loc;
  const char *message;
  bool fatal;
} wl_parse_diag;

/* A file of the user's own code other than the main file (a header it
 * includes, never the prelude, toolkit or a system header) that holds
 * function bodies or macro definitions the main file's code expands. */
typedef struct wl_tu_file {
  const char *name;   /* as in wl_loc.file */
  const char *canon;  /* canonical path */
  const char *source; /* its text as clang read it (NUL-terminated) */
  size_t source_len;
  bool has_code;       /* holds a function body or a macro definition expanded in code */
  bool report;         /* findings located in it are reported (set by analyze.c) */
  const char *display; /* the path its findings carry (set by analyze.c) */
} wl_tu_file;

/* A file a parse read (deps.h): its name as libclang reports it, and the
 * size and wl_fnv1a hash of the text it read. */
typedef struct wl_tu_dep {
  const char *path;
  uint64_t hash;
  size_t len;
} wl_tu_dep;

typedef struct wl_tu {
  wl_arena arena;
  const char *path; /* main file, as given */
  wl_func **funcs;  /* every function with a body, lambdas included, in source order */
  unsigned nfuncs;
  wl_var **globals;
  unsigned nglobals;
  wl_parse_diag *diags; /* parse errors */
  unsigned ndiags;
  /* parts of the file that were not analyzed (a function nested deeper than
   * WL_MAX_NESTING): reported as notices (diag.h) */
  wl_parse_diag *notices;
  unsigned nnotices;
  const char *source; /* main file text (NUL-terminated) */
  size_t source_len;
  wl_tu_file *files; /* every user header the TU includes, in order of first use */
  unsigned nfiles;
  /* the main file's name in locations: `path` and `source` are those of a
   * header while analyze.c reports the findings located in it */
  const char *main_path;
  const char *main_display; /* the path the main file's findings carry (analyze.c) */
  /* every file the parse read, with wl_parse_opts.deps (deps.h); ndeps 0
   * when they could not all be listed */
  wl_tu_dep *deps;
  unsigned ndeps;
  /* lowered in batches (wl_parse_opts.on_batch): funcs is empty once
   * wl_parse returns, each batch's functions were handed over in turn */
  bool batched;
  /* parsed with the standard headers, which may change what it means, and
   * not parsed again (wl_parse_opts.probe_missing) */
  bool std_unchecked;
} wl_tu;

/* Look-ups used by analyses. */
wl_func *wl_tu_find_func(const wl_tu *tu, const char *usr);
/* Whether `loc` lies in the main file of the TU. */
bool wl_tu_in_main(const wl_tu *tu, wl_loc loc);
/* The user header of the TU that `loc` lies in; NULL for the main file and
 * for files that are not the user's (prelude, toolkit, system). */
const wl_tu_file *wl_tu_file_of(const wl_tu *tu, wl_loc loc);
/* The path that findings and notes at loc carry when loc is not in the file
 * being reported on: the main file's displayed path, a reported header's
 * displayed path (analyze.c sets both), else the file as clang spells it. */
const char *wl_tu_shown_path(const wl_tu *tu, wl_loc loc);
/* The member name of a call without arguments of `T::name` where T is a
 * template parameter of f and lowering linked no function (GROUP::size());
 * NULL for any other expression. */
const char *wl_tparam_member_call(const wl_func *f, const wl_expr *e);
/* The built-in operator (WL_B_*, assignments included) that a call named
 * `operatorX` stands for, or WL_B_NONE. In a template, arithmetic on
 * dependent types becomes such a call when overloads of the operator are
 * visible (CCCL declares many). */
int wl_operator_binop(const char *name);

/* Generic traversal over a function's statements and expressions. Callbacks
 * return false to stop descending into that node's children. */
typedef struct wl_visitor {
  bool (*stmt)(const wl_stmt *s, void *ud);
  bool (*expr)(const wl_expr *e, const wl_stmt *in, void *ud);
  void *ud;
  bool into_lambdas; /* descend into lambda bodies (default: no, they are functions of their own) */
} wl_visitor;
void wl_walk_stmt(const wl_stmt *s, const wl_visitor *v);
void wl_walk_expr(const wl_expr *e, const wl_stmt *in, const wl_visitor *v);

/* Expression helpers. */
const wl_expr *wl_expr_strip(const wl_expr *e); /* skips casts and parentheses-like wrappers */
bool wl_expr_is_call(const wl_expr *e, const char *name);
bool wl_binop_is_assign(int op); /* = and compound assignments */
/* The variable e may change: the target of an assignment, increment or
 * decrement, or the variable whose address it takes (through casts); NULL
 * for anything else. */
const wl_var *wl_assigned_var(const wl_expr *e);
/* Counts, for each local and parameter, the expressions of these functions'
 * bodies that may change it (lambda bodies are functions of their own):
 * wl_var.assigned_in, nassigned and assigned_many; each function once. */
void wl_count_assignments(wl_func *const *funcs, size_t n);
/* Whether v is counted by wl_count_assignments (a local or a parameter). */
bool wl_assignments_counted(const wl_var *v);
bool wl_binop_is_compound(int op); /* +=, -=, ... */
const char *wl_binop_spelling(int op);
/* The statement that holds s directly in f (a compound statement whose kid it
 * is, or the if/loop whose branch or body it is); NULL when none. */
const wl_stmt *wl_stmt_parent(const wl_func *f, const wl_stmt *s);
const char *wl_unop_spelling(int op);

/* Whether operand e of an operator in f is known to have a type that is
 * neither a class nor an enumeration (arithmetic or pointer): a non-dependent
 * such type, a literal, built-in arithmetic on such operands, or a static
 * member function of one of f's template type parameters (`GROUP::size()`)
 * whose every definition of that name in the TU is declared to return one. */
bool wl_operand_scalar(const wl_tu *tu, const wl_func *f, const wl_expr *e);
/* Whether a call of `operatorX` (a binary or unary operator, not a member
 * call, `()`, `[]` or `->`) in f is the built-in operator: when no operand
 * has class or enumeration type, overload resolution does not consider the
 * operator functions at all ([over.match.oper]), so whatever candidate clang
 * kept for a dependent call in a template (lower.c links one of them as the
 * callee, such as an operator template of a library type) is not what an
 * instantiation calls. */
bool wl_operator_call_builtin(const wl_tu *tu, const wl_func *f, const wl_expr *e);

#endif
