/* compdb.c - compile_commands.json through libclang's compilation-database
 * API (the one place besides parse.c that calls libclang), and the
 * translation of nvcc/clang/gcc command lines into clang arguments: include
 * paths and macros are kept (relative paths made absolute against the entry's
 * directory), -arch/-gencode/... become one architecture, everything that
 * only matters to code generation, linking or the host compiler is dropped. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "compdb.h"

#include "argtrust.h"

#include <clang-c/CXCompilationDatabase.h>
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parse.h"

void wl_compile_flags_init(wl_compile_flags *f) { memset(f, 0, sizeof *f); }

void wl_compile_flags_free(wl_compile_flags *f) {
  for (size_t i = 0; i < f->args.n; i++)
    free(f->args.v[i]);
  for (size_t i = 0; i < f->notes.n; i++)
    free(f->notes.v[i]);
  wl_vec_free(&f->args);
  wl_vec_free(&f->notes);
  wl_compile_flags_init(f);
}

/* ------------------------------------------------------------------------ */
/* Words                                                                    */

bool wl_split_args(const char *s, wl_vec *out, wl_buf *err) {
  wl_buf w;
  wl_buf_init(&w);
  bool in_word = false;
  for (;;) {
    char c = *s;
    if (c == '\0' || c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (in_word)
        wl_vec_push(out, wl_buf_detach(&w));
      in_word = false;
      if (c == '\0')
        break;
      s++;
      continue;
    }
    in_word = true;
    if (c == '\\') {
      if (s[1] == '\n') {
        s += 2;
        continue;
      }
      if (s[1])
        s++;
      wl_buf_putc(&w, *s++);
      continue;
    }
    if (c == '\'' || c == '"') {
      const char *q = s + 1;
      while (*q && *q != c) {
        if (c == '"' && *q == '\\' && q[1] && strchr("\"\\$`\n", q[1]))
          q++;
        wl_buf_putc(&w, *q++);
      }
      if (!*q) {
        wl_buf_printf(err, "unterminated %s quote", c == '"' ? "double" : "single");
        wl_buf_free(&w);
        return false;
      }
      s = q + 1;
      if (w.len == 0)
        wl_buf_add(&w, "", 0); /* "" is an empty word */
      continue;
    }
    wl_buf_putc(&w, c);
    s++;
  }
  wl_buf_free(&w);
  return true;
}

/* ------------------------------------------------------------------------ */
/* Flag translation                                                         */

enum {
  F_JOINED = 1, /* -Ipath */
  F_EQ = 2,     /* --name=value */
  F_SEP = 4     /* --name value */
};

typedef enum {
  K_INC,
  K_ISYSTEM,
  K_IQUOTE,
  K_IDIRAFTER,
  K_DEFINE,
  K_UNDEF,
  K_INCLUDE,
  K_IMACROS,
  K_STD,
  K_LANG,
  K_ARCH,
  K_CODE,
  K_GENCODE,
  K_XCOMPILER,
  K_OPTFILE,
  K_RDC, /* -rdc=true: relocatable device code, clang's -fgpu-rdc */
  K_DROP /* understood, irrelevant: dropped with its value */
} opt_kind;

typedef struct opt_def {
  const char *name;
  opt_kind kind;
  unsigned forms;
} opt_def;

/* Options with a value. The first match wins, so where a name with
 * F_JOINED prefixes another option, the longer one comes first
 * (-include-pch before -include, -odir before -o). */
static const opt_def value_opts[] = {
    {"-I", K_INC, F_JOINED | F_SEP},
    {"--include-path", K_INC, F_EQ | F_SEP},
    {"-isystem", K_ISYSTEM, F_EQ | F_JOINED | F_SEP},
    {"--system-include", K_ISYSTEM, F_EQ | F_SEP},
    {"-iquote", K_IQUOTE, F_JOINED | F_SEP},
    {"-idirafter", K_IDIRAFTER, F_JOINED | F_SEP},
    {"-D", K_DEFINE, F_JOINED | F_SEP},
    {"--define-macro", K_DEFINE, F_EQ | F_SEP},
    {"-U", K_UNDEF, F_JOINED | F_SEP},
    {"--undefine-macro", K_UNDEF, F_EQ | F_SEP},
    {"-include-pch", K_DROP, F_SEP},
    {"-include", K_INCLUDE, F_JOINED | F_SEP},
    {"--pre-include", K_INCLUDE, F_EQ | F_SEP},
    {"-imacros", K_IMACROS, F_JOINED | F_SEP},
    {"-std", K_STD, F_EQ | F_SEP},
    {"--std", K_STD, F_EQ | F_SEP},
    {"-x", K_LANG, F_JOINED | F_SEP},
    {"--x", K_LANG, F_EQ | F_SEP},
    {"-arch", K_ARCH, F_EQ | F_SEP},
    {"--gpu-architecture", K_ARCH, F_EQ | F_SEP},
    {"--cuda-gpu-arch", K_ARCH, F_EQ | F_SEP},
    {"--offload-arch", K_ARCH, F_EQ | F_SEP},
    {"-code", K_CODE, F_EQ | F_SEP},
    {"--gpu-code", K_CODE, F_EQ | F_SEP},
    {"-gencode", K_GENCODE, F_EQ | F_SEP},
    {"--generate-code", K_GENCODE, F_EQ | F_SEP},
    {"-Xcompiler", K_XCOMPILER, F_EQ | F_SEP},
    {"--compiler-options", K_XCOMPILER, F_EQ | F_SEP},
    {"--options-file", K_OPTFILE, F_EQ | F_SEP},
    {"-optf", K_OPTFILE, F_EQ | F_SEP},
    /* nvcc: output, host compiler, other tools' options, code generation */
    {"--output-file", K_DROP, F_EQ | F_SEP},
    {"-ccbin", K_DROP, F_EQ | F_SEP},
    {"--compiler-bindir", K_DROP, F_EQ | F_SEP},
    {"-Xptxas", K_DROP, F_EQ | F_SEP},
    {"--ptxas-options", K_DROP, F_EQ | F_SEP},
    {"-Xlinker", K_DROP, F_EQ | F_SEP},
    {"--linker-options", K_DROP, F_EQ | F_SEP},
    {"-Xnvlink", K_DROP, F_EQ | F_SEP},
    {"--nvlink-options", K_DROP, F_EQ | F_SEP},
    {"-Xarchive", K_DROP, F_EQ | F_SEP},
    {"--archive-options", K_DROP, F_EQ | F_SEP},
    {"-Xcudafe", K_DROP, F_EQ | F_SEP},
    {"-Xfatbin", K_DROP, F_EQ | F_SEP},
    {"--fatbin-options", K_DROP, F_EQ | F_SEP},
    {"-maxrregcount", K_DROP, F_EQ | F_SEP},
    {"--maxrregcount", K_DROP, F_EQ | F_SEP},
    {"-odir", K_DROP, F_EQ | F_SEP},
    {"--output-directory", K_DROP, F_EQ | F_SEP},
    {"-MF", K_DROP, F_JOINED | F_SEP},
    {"--dependency-output", K_DROP, F_EQ | F_SEP},
    {"-MT", K_DROP, F_JOINED | F_SEP},
    {"--dependency-target-name", K_DROP, F_EQ | F_SEP},
    {"-MQ", K_DROP, F_JOINED | F_SEP},
    {"-t", K_DROP, F_EQ | F_SEP},
    {"--threads", K_DROP, F_EQ | F_SEP},
    {"-split-compile", K_DROP, F_EQ | F_SEP},
    {"--split-compile", K_DROP, F_EQ | F_SEP},
    {"--library-path", K_DROP, F_EQ | F_SEP},
    {"--library", K_DROP, F_EQ | F_SEP},
    {"-cudart", K_DROP, F_EQ | F_SEP},
    {"--cudart", K_DROP, F_EQ | F_SEP},
    {"-cudadevrt", K_DROP, F_EQ | F_SEP},
    {"--cudadevrt", K_DROP, F_EQ | F_SEP},
    {"-ldir", K_DROP, F_EQ | F_SEP},
    {"--libdevice-directory", K_DROP, F_EQ | F_SEP},
    {"-keep-dir", K_DROP, F_EQ | F_SEP},
    {"--keep-dir", K_DROP, F_EQ | F_SEP},
    {"-diag-suppress", K_DROP, F_EQ | F_SEP},
    {"--diag-suppress", K_DROP, F_EQ | F_SEP},
    {"-diag-error", K_DROP, F_EQ | F_SEP},
    {"--diag-error", K_DROP, F_EQ | F_SEP},
    {"-diag-warn", K_DROP, F_EQ | F_SEP},
    {"--diag-warn", K_DROP, F_EQ | F_SEP},
    {"-default-stream", K_DROP, F_EQ | F_SEP},
    {"--default-stream", K_DROP, F_EQ | F_SEP},
    {"-rdc", K_RDC, F_EQ | F_SEP},
    {"--relocatable-device-code", K_RDC, F_EQ | F_SEP},
    {"-ftz", K_DROP, F_EQ | F_SEP},
    {"--ftz", K_DROP, F_EQ | F_SEP},
    {"-prec-div", K_DROP, F_EQ | F_SEP},
    {"--prec-div", K_DROP, F_EQ | F_SEP},
    {"-prec-sqrt", K_DROP, F_EQ | F_SEP},
    {"--prec-sqrt", K_DROP, F_EQ | F_SEP},
    {"-fmad", K_DROP, F_EQ | F_SEP},
    {"--fmad", K_DROP, F_EQ | F_SEP},
    {"--machine", K_DROP, F_EQ | F_SEP},
    {"-time", K_DROP, F_EQ | F_SEP},
    {"--time", K_DROP, F_EQ | F_SEP},
    {"-run-args", K_DROP, F_EQ | F_SEP},
    {"--run-args", K_DROP, F_EQ | F_SEP},
    {"-Xclang", K_DROP, F_SEP},
    {"-mllvm", K_DROP, F_SEP},
    {"-target", K_DROP, F_SEP},
    {"--target", K_DROP, F_EQ | F_SEP},
    {"-Xcuda-ptxas", K_DROP, F_SEP},
    {"-Xcuda-fatbinary", K_DROP, F_SEP},
    {"-Xarch_device", K_DROP, F_SEP},
    {"-Xarch_host", K_DROP, F_SEP},
    {"-isysroot", K_DROP, F_JOINED | F_SEP},
    {"--sysroot", K_DROP, F_EQ | F_SEP},
    {"-resource-dir", K_DROP, F_EQ | F_SEP},
    {"--cuda-path", K_DROP, F_EQ | F_SEP},
    {"--driver-mode", K_DROP, F_EQ},
    /* short names that prefix longer ones (-odir, -ldir, -lineinfo): last */
    {"-o", K_DROP, F_JOINED | F_SEP},
    {"-L", K_DROP, F_JOINED | F_SEP},
    {"-l", K_DROP, F_JOINED | F_SEP},
};

/* Flags without a value that are understood and irrelevant. */
/* clang-format off */
static const char *const known_flags[] = {
    "-c", "--compile", "-G", "--device-debug", "-lineinfo", "--generate-line-info",
    "-use_fast_math", "--use_fast_math", "-expt-relaxed-constexpr", "--expt-relaxed-constexpr",
    "-expt-extended-lambda", "--expt-extended-lambda", "-extended-lambda", "--extended-lambda",
    "-forward-unknown-to-host-compiler", "--forward-unknown-to-host-compiler",
    "-forward-unknown-to-host-linker", "--forward-unknown-to-host-linker", "-dc", "--device-c",
    "-dw", "--device-w", "-dlink", "--device-link", "-dlto", "--dlink-time-opt", "-ptx", "--ptx",
    "-cubin", "--cubin", "-fatbin", "--fatbin", "-E", "--preprocess", "-M", "-MM", "-MD", "-MMD",
    "-MP", "--generate-dependencies", "--generate-nonsystem-dependencies",
    "--generate-dependencies-with-compile", "--generate-nonsystem-dependencies-with-compile",
    "-keep", "--keep", "-v", "--verbose", "-shared", "--shared", "-lib", "--lib", "-pipe", "-w",
    "--disable-warnings", "-res-usage", "--resource-usage", "-src-in-ptx", "--source-in-ptx",
    "-restrict", "--restrict", "-nocudainc", "-nocudalib", "--cuda-device-only",
    "--cuda-host-only", "-cuda", "--cuda", "-allow-unsupported-compiler",
    "--allow-unsupported-compiler", "-pthread", "-pedantic", "-pg", "-static", "-rdynamic",
    "-no-compress", "--no-compress", "-noprof", "--dont-use-profile", "-pie"};
/* clang-format on */

/* Prefixes of host-compiler and optimization flags (-O3, -Wall, -fPIC, -m64,
 * -g3, -Werror=...) that CMake forwards and clang need not see. */
static const char *const known_prefixes[] = {"-O", "-W", "-f", "-m", "-g", "--Werror"};

typedef struct translator {
  wl_compile_flags *out;
  const char *dir;
  bool nvcc;
  unsigned *archs;
  size_t narchs, cap;
  wl_vec optfiles;    /* char*: canonical paths of the options files being read (a cycle) */
  unsigned noptfiles; /* options files read for this command */
  bool rdc;           /* -fgpu-rdc pushed */
} translator;

/* Options files of one command: nested at most this deep, at most this many. */
#define WL_OPTFILE_DEPTH 8
#define WL_OPTFILE_MAX 64

static void push(translator *t, const char *s) { wl_vec_push(&t->out->args, wl_xstrdup(s)); }

static void push2(translator *t, const char *a, const char *b) {
  size_t n = strlen(a) + strlen(b) + 1;
  char *s = wl_xmalloc(n);
  snprintf(s, n, "%s%s", a, b);
  wl_vec_push(&t->out->args, s);
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void
note(translator *t, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  wl_vec_push(&t->out->notes, wl_xstrdup(msg));
}

static void add_arch(translator *t, unsigned a) {
  if (t->narchs == t->cap) {
    t->cap = t->cap ? t->cap * 2 : 4;
    t->archs = wl_xrealloc(t->archs, t->cap * sizeof *t->archs);
  }
  t->archs[t->narchs++] = a;
}

unsigned wl_pick_arch(const unsigned *archs, size_t n) {
  unsigned best = 0;
  for (size_t i = 0; i < n; i++)
    if (archs[i] >= 70 && (best == 0 || archs[i] < best))
      best = archs[i];
  return best ? best : n ? archs[0] : 0;
}

/* A comma-separated list of architectures (sm_75,compute_80,[sm_90]). */
static void arch_list(translator *t, const char *v) {
  char *copy = wl_xstrdup(v);
  for (char *save = NULL, *tok = strtok_r(copy, ",[]\"' ", &save); tok;
       tok = strtok_r(NULL, ",[]\"' ", &save)) {
    unsigned a = wl_parse_arch(tok);
    if (a)
      add_arch(t, a);
    else if (strcmp(tok, "native") && strcmp(tok, "all") && strcmp(tok, "all-major"))
      note(t, "unknown GPU architecture '%s' ignored", tok);
  }
  free(copy);
}

/* -gencode arch=compute_75,code=[compute_75,sm_75]: the virtual architecture
 * decides __CUDA_ARCH__; without arch=, the code= list. */
static void gencode(translator *t, const char *v) {
  const char *a = strstr(v, "arch=");
  if (a) {
    char buf[64];
    size_t n = strcspn(a + 5, ",");
    snprintf(buf, sizeof buf, "%.*s", (int)(n < sizeof buf ? n : sizeof buf - 1), a + 5);
    arch_list(t, buf);
    return;
  }
  const char *c = strstr(v, "code=");
  if (c)
    arch_list(t, c + 5);
  else
    note(t, "cannot read -gencode '%s'", v);
}

static void translate(translator *t, const char *const *av, size_t ac, int depth, bool host);

static void options_file(translator *t, const char *name, int depth) {
  if (depth > WL_OPTFILE_DEPTH) {
    note(t, "options file '%s' nested too deeply (more than %d levels): not read", name,
         WL_OPTFILE_DEPTH);
    return;
  }
  if (t->noptfiles >= WL_OPTFILE_MAX) {
    note(t, "options file '%s' not read: more than %d options files in one command", name,
         WL_OPTFILE_MAX);
    return;
  }
  char *path = wl_join_path(t->dir, name);
  char *canon = wl_canonical_path(path);
  for (size_t i = 0; i < t->optfiles.n; i++)
    if (strcmp(t->optfiles.v[i], canon) == 0) {
      note(t, "options file '%s' includes itself: not read again", path);
      free(canon);
      free(path);
      return;
    }
  t->noptfiles++;
  wl_buf why;
  wl_buf_init(&why);
  char *text = wl_read_file_max(path, WL_READ_MAX_CONFIG, NULL, &why);
  if (!text) {
    note(t, "cannot read options file '%s': %s", path, wl_buf_str(&why));
    wl_buf_free(&why);
    free(canon);
    free(path);
    return;
  }
  wl_buf_free(&why);
  wl_vec words = {0};
  wl_buf err;
  wl_buf_init(&err);
  if (!wl_split_args(text, &words, &err))
    note(t, "options file '%s': %s", path, wl_buf_str(&err));
  wl_vec_push(&t->optfiles, canon);
  translate(t, (const char *const *)words.v, words.n, depth + 1, false);
  t->optfiles.n--;
  free(canon);
  for (size_t i = 0; i < words.n; i++)
    free(words.v[i]);
  wl_vec_free(&words);
  wl_buf_free(&err);
  free(text);
  free(path);
}

/* Include directories: relative ones are relative to the entry's directory;
 * nvcc takes comma-separated lists. */
static void include_dir(translator *t, const char *flag, bool joined, const char *v) {
  char *copy = wl_xstrdup(v);
  char *save = NULL;
  char *tok = t->nvcc ? strtok_r(copy, ",", &save) : copy;
  for (; tok; tok = t->nvcc ? strtok_r(NULL, ",", &save) : NULL) {
    char *p = wl_join_path(t->dir, tok);
    if (joined) {
      push2(t, flag, p);
    } else {
      push(t, flag);
      push(t, p);
    }
    free(p);
  }
  free(copy);
}

static void forced_include(translator *t, const char *flag, const char *v) {
  push(t, flag);
  char *p = wl_join_path(t->dir, v);
  struct stat st;
  push(t, v[0] != '/' && stat(p, &st) == 0 ? p : v); /* else: found through -I */
  free(p);
}

/* Matches av[*i] against an option; on a match returns true and sets *value
 * (NULL when the value is missing at the end of the command). */
static bool match_opt(const opt_def *d, const char *const *av, size_t ac, size_t *i,
                      const char **value) {
  const char *a = av[*i];
  size_t n = strlen(d->name);
  if (strncmp(a, d->name, n) != 0)
    return false;
  if ((d->forms & F_EQ) && a[n] == '=') {
    *value = a + n + 1;
    return true;
  }
  if ((d->forms & F_SEP) && a[n] == '\0') {
    *value = *i + 1 < ac ? av[++*i] : NULL;
    return true;
  }
  if ((d->forms & F_JOINED) && a[n] != '\0') {
    *value = a + n;
    return true;
  }
  return false;
}

static bool is_known_flag(const char *a) {
  for (size_t k = 0; k < sizeof known_flags / sizeof known_flags[0]; k++)
    if (strcmp(a, known_flags[k]) == 0)
      return true;
  for (size_t k = 0; k < sizeof known_prefixes / sizeof known_prefixes[0]; k++)
    if (strncmp(a, known_prefixes[k], strlen(known_prefixes[k])) == 0)
      return true;
  return false;
}

/* Relocatable device code (nvcc -dc, -rdc=true; clang -fgpu-rdc): clang
 * then accepts what only such builds allow, such as NCCL's
 * `extern __shared__ ncclShmemData ncclShmem;` (not an array), which it
 * otherwise rejects and drops every use of. */
static void rdc(translator *t) {
  if (!t->rdc)
    push(t, "-fgpu-rdc");
  t->rdc = true;
}

/* host: the words of -Xcompiler, where only macros and include paths matter. */
static void translate(translator *t, const char *const *av, size_t ac, int depth, bool host) {
  for (size_t i = 0; i < ac; i++) {
    const char *a = av[i];
    if (a[0] == '@' && a[1] && !host) {
      options_file(t, a + 1, depth);
      continue;
    }
    if (a[0] != '-' || a[1] == '\0')
      continue; /* inputs (the file itself) and outputs */
    if (!host &&
        (strcmp(a, "-dc") == 0 || strcmp(a, "--device-c") == 0 || strcmp(a, "-fgpu-rdc") == 0)) {
      rdc(t);
      continue;
    }
    const opt_def *d = NULL;
    const char *v = NULL;
    for (size_t k = 0; k < sizeof value_opts / sizeof value_opts[0]; k++)
      if (match_opt(&value_opts[k], av, ac, &i, &v)) {
        d = &value_opts[k];
        break;
      }
    if (!d) {
      if (!host && !is_known_flag(a))
        note(t, "unknown flag '%s' dropped", a);
      continue;
    }
    if (!v) {
      if (!host)
        note(t, "'%s' without a value dropped", a);
      continue;
    }
    if (host && d->kind != K_INC && d->kind != K_ISYSTEM && d->kind != K_DEFINE &&
        d->kind != K_UNDEF && d->kind != K_INCLUDE)
      continue;
    switch (d->kind) {
    case K_INC: include_dir(t, "-I", true, v); break;
    case K_ISYSTEM: include_dir(t, "-isystem", false, v); break;
    case K_IQUOTE: include_dir(t, "-iquote", false, v); break;
    case K_IDIRAFTER: include_dir(t, "-idirafter", false, v); break;
    case K_DEFINE: push2(t, "-D", v); break;
    case K_UNDEF: push2(t, "-U", v); break;
    case K_INCLUDE: forced_include(t, "-include", v); break;
    case K_IMACROS: forced_include(t, "-imacros", v); break;
    case K_STD: /* warplint parses CUDA, a C++ dialect: a C standard would make clang refuse */
      if (strstr(v, "++"))
        push2(t, "-std=", v);
      break;
    case K_LANG:
      t->out->lang = strcmp(v, "cu") == 0 || strcmp(v, "cuda") == 0 ? WL_LANG_CUDA
                     : strcmp(v, "none") == 0                       ? WL_LANG_UNKNOWN
                                                                    : WL_LANG_OTHER;
      break;
    case K_ARCH:
    case K_CODE: arch_list(t, v); break;
    case K_GENCODE: gencode(t, v); break;
    case K_XCOMPILER: {
      wl_vec words = {0};
      char *copy = wl_xstrdup(v);
      for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok;
           tok = strtok_r(NULL, ",", &save))
        wl_vec_push(&words, tok);
      translate(t, (const char *const *)words.v, words.n, depth, true);
      wl_vec_free(&words);
      free(copy);
      break;
    }
    case K_OPTFILE: options_file(t, v, depth); break;
    case K_RDC:
      if (strcmp(v, "true") == 0)
        rdc(t);
      break;
    case K_DROP: break;
    }
  }
}

static const char *base_name(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

void wl_translate_command(const char *const *argv, size_t argc, const char *dir,
                          wl_compile_flags *out) {
  translator t;
  memset(&t, 0, sizeof t);
  t.out = out;
  t.dir = dir;
  size_t first = 0;
  /* compiler launchers: ccache nvcc ... */
  while (first < argc && (strcmp(base_name(argv[first]), "ccache") == 0 ||
                          strcmp(base_name(argv[first]), "sccache") == 0))
    first++;
  if (first < argc) {
    t.nvcc = strncmp(base_name(argv[first]), "nvcc", 4) == 0;
    translate(&t, argv + first + 1, argc - first - 1, 0, false);
  }
  out->arch = wl_pick_arch(t.archs, t.narchs);
  free(t.archs);
  wl_vec_free(&t.optfiles);
  /* the database is untrusted: whatever the translation lets through must
   * also pass the allow-list of argtrust.h (nothing that writes or loads) */
  size_t w = 0;
  for (size_t i = 0; i < out->args.n;) {
    const char *why = NULL;
    size_t n = wl_arg_trusted((const char *const *)out->args.v, out->args.n, i, &why);
    if (n == 0) {
      note(&t, "flag '%s' dropped: %s", (const char *)out->args.v[i], why);
      free(out->args.v[i++]);
      continue;
    }
    for (size_t k = 0; k < n; k++)
      out->args.v[w++] = out->args.v[i++];
  }
  out->args.n = w;
}

/* ------------------------------------------------------------------------ */
/* The database                                                             */

static char *cx_dup(CXString s) {
  const char *c = clang_getCString(s);
  char *r = wl_xstrdup(c ? c : "");
  clang_disposeString(s);
  return r;
}

/* Checks the shape libclang expects, so that a bad database gets a precise
 * reason (and libclang, which prints its own complaint on stderr, is only
 * handed a good one). */
static bool check_db(const char *file, wl_buf *err) {
  size_t len = 0;
  wl_buf why;
  wl_buf_init(&why);
  char *text = wl_read_file_max(file, WL_READ_MAX_DATA, &len, &why);
  if (!text) {
    wl_buf_printf(err, "%s: cannot read: %s", file, wl_buf_str(&why));
    wl_buf_free(&why);
    return false;
  }
  wl_buf_free(&why);
  json_tokener *tok = json_tokener_new();
  json_object *root = json_tokener_parse_ex(tok, text, (int)len);
  enum json_tokener_error je = json_tokener_get_error(tok);
  bool ok = false;
  if (!root || je != json_tokener_success) {
    wl_buf_printf(err, "%s: not valid JSON: %s", file,
                  je == json_tokener_continue ? "unexpected end of file"
                                              : json_tokener_error_desc(je));
  } else if (!json_object_is_type(root, json_type_array)) {
    wl_buf_printf(err, "%s: not a JSON array of compile commands", file);
  } else {
    size_t n = json_object_array_length(root);
    const char *what = NULL;
    size_t bad = 0;
    for (size_t i = 0; i < n && !what; i++) {
      json_object *e = json_object_array_get_idx(root, i), *x = NULL, *args = NULL;
      bad = i + 1;
      if (!json_object_is_type(e, json_type_object))
        what = "is not an object";
      else if (!json_object_object_get_ex(e, "directory", &x) ||
               !json_object_is_type(x, json_type_string))
        what = "has no \"directory\"";
      else if (!json_object_object_get_ex(e, "file", &x) ||
               !json_object_is_type(x, json_type_string))
        what = "has no \"file\"";
      else if (json_object_object_get_ex(e, "arguments", &args)) {
        if (!json_object_is_type(args, json_type_array))
          what = "has \"arguments\" that is not an array";
        for (size_t k = 0; !what && k < json_object_array_length(args); k++)
          if (!json_object_is_type(json_object_array_get_idx(args, k), json_type_string))
            what = "has an argument that is not a string";
      } else if (!json_object_object_get_ex(e, "command", &x) ||
                 !json_object_is_type(x, json_type_string))
        what = "has neither \"command\" nor \"arguments\"";
    }
    if (what)
      wl_buf_printf(err, "%s: entry %zu %s", file, bad, what);
    else
      ok = true;
  }
  json_object_put(root);
  json_tokener_free(tok);
  free(text);
  return ok;
}

typedef struct ordered_entry {
  wl_compdb_entry e;
  size_t idx; /* position in the database */
} ordered_entry;

static int cmp_ordered(const void *a, const void *b) {
  const ordered_entry *x = a, *y = b;
  int c = strcmp(x->e.file, y->e.file);
  return c ? c : x->idx < y->idx ? -1 : x->idx > y->idx;
}

static void load_commands(CXCompilationDatabase cdb, const char *db_dir, wl_compdb *db) {
  CXCompileCommands cmds = clang_CompilationDatabase_getAllCompileCommands(cdb);
  unsigned n = cmds ? clang_CompileCommands_getSize(cmds) : 0;
  db->v = wl_xcalloc(n ? n : 1, sizeof *db->v);
  for (unsigned i = 0; i < n; i++) {
    CXCompileCommand c = clang_CompileCommands_getCommand(cmds, i);
    char *dir = cx_dup(clang_CompileCommand_getDirectory(c));
    if (dir[0] != '/') { /* relative "directory": relative to the database */
      char *abs = wl_join_path(db_dir, dir);
      free(dir);
      dir = abs;
    }
    char *file = cx_dup(clang_CompileCommand_getFilename(c));
    char *abs_file = wl_join_path(dir, file);
    unsigned na = clang_CompileCommand_getNumArgs(c);
    char **argv = wl_xcalloc(na ? na : 1, sizeof *argv);
    for (unsigned k = 0; k < na; k++)
      argv[k] = cx_dup(clang_CompileCommand_getArg(c, k));
    wl_compdb_entry *e = &db->v[db->n++];
    e->file = wl_canonical_path(abs_file);
    e->dir = dir;
    wl_compile_flags_init(&e->flags);
    wl_translate_command((const char *const *)argv, na, dir, &e->flags);
    for (unsigned k = 0; k < na; k++)
      free(argv[k]);
    free(argv);
    free(abs_file);
    free(file);
  }
  if (cmds)
    clang_CompileCommands_dispose(cmds);
  /* sort by file, entries of one file in database order, then keep the first */
  ordered_entry *p = wl_xcalloc(db->n ? db->n : 1, sizeof *p);
  for (size_t i = 0; i < db->n; i++) {
    p[i].e = db->v[i];
    p[i].idx = i;
  }
  qsort(p, db->n, sizeof *p, cmp_ordered);
  for (size_t i = 0; i < db->n; i++)
    db->v[i] = p[i].e;
  free(p);
  size_t w = 0;
  for (size_t r = 0; r < db->n; r++) {
    if (w > 0 && strcmp(db->v[w - 1].file, db->v[r].file) == 0) {
      free(db->v[r].file);
      free(db->v[r].dir);
      wl_compile_flags_free(&db->v[r].flags);
      db->duplicates++;
      continue;
    }
    db->v[w++] = db->v[r];
  }
  db->n = w;
}

bool wl_compdb_load(const char *path, wl_compdb *db, wl_buf *err) {
  memset(db, 0, sizeof *db);
  struct stat st;
  if (stat(path, &st) != 0) {
    wl_buf_printf(err, "%s: cannot access: %s", path, strerror(errno));
    return false;
  }
  char *json_file = NULL; /* the real file */
  char *db_dir = NULL;    /* its directory */
  char tmpdir[] = "/tmp/warplint-compdb-XXXXXX";
  char *link_path = NULL;
  const char *load_dir;
  if (S_ISDIR(st.st_mode)) {
    json_file = wl_join_path(path, "compile_commands.json");
    if (stat(json_file, &st) != 0) {
      wl_buf_printf(err, "%s: no compile_commands.json in this directory", path);
      free(json_file);
      return false;
    }
    db_dir = wl_canonical_path(path);
    load_dir = path;
  } else {
    json_file = wl_canonical_path(path);
    db_dir = wl_xstrdup(json_file);
    char *slash = strrchr(db_dir, '/');
    slash[slash == db_dir ? 1 : 0] = '\0';
    if (strcmp(base_name(json_file), "compile_commands.json") == 0) {
      load_dir = db_dir;
    } else { /* libclang reads only that name: give it a link to the file */
      if (!mkdtemp(tmpdir)) {
        wl_buf_printf(err, "%s: cannot create a temporary directory: %s", path, strerror(errno));
        free(json_file);
        free(db_dir);
        return false;
      }
      link_path = wl_join_path(tmpdir, "compile_commands.json");
      if (symlink(json_file, link_path) != 0) {
        wl_buf_printf(err, "%s: cannot link it into %s: %s", path, tmpdir, strerror(errno));
        free(link_path);
        rmdir(tmpdir);
        free(json_file);
        free(db_dir);
        return false;
      }
      load_dir = tmpdir;
    }
  }
  CXCompilationDatabase_Error ec = CXCompilationDatabase_NoError;
  CXCompilationDatabase cdb = NULL;
  bool ok = check_db(json_file, err);
  if (ok) {
    cdb = clang_CompilationDatabase_fromDirectory(load_dir, &ec);
    ok = cdb && ec == CXCompilationDatabase_NoError;
    if (ok)
      load_commands(cdb, db_dir, db);
    else
      wl_buf_printf(err, "%s: libclang could not load the compilation database", json_file);
  }
  if (cdb)
    clang_CompilationDatabase_dispose(cdb);
  if (link_path) {
    unlink(link_path);
    rmdir(tmpdir);
    free(link_path);
  }
  free(json_file);
  free(db_dir);
  return ok;
}

const wl_compdb_entry *wl_compdb_find(const wl_compdb *db, const char *canonical) {
  size_t lo = 0, hi = db->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = strcmp(db->v[mid].file, canonical);
    if (c == 0)
      return &db->v[mid];
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return NULL;
}

void wl_compdb_free(wl_compdb *db) {
  for (size_t i = 0; i < db->n; i++) {
    free(db->v[i].file);
    free(db->v[i].dir);
    wl_compile_flags_free(&db->v[i].flags);
  }
  free(db->v);
  memset(db, 0, sizeof *db);
}
