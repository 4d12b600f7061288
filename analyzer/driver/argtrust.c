/* argtrust.c - the allow-list of clang arguments from untrusted sources
 * (.warplint clang-args, compile_commands.json after translation); see
 * argtrust.h. */
#include "argtrust.h"

#include <string.h>

/* Flags whose value is joined (-Iinc) or the next word (-I inc). */
static const char *const value_flags[] = {"-I", "-isystem", "-iquote",  "-idirafter", "-D",
                                          "-U", "-include", "-imacros", "-x"};

/* Flags without a value: they change what the language is, not where
 * anything goes. */
/* clang-format off */
static const char *const plain_flags[] = {
    "-nostdinc", "-nostdinc++", "-nostdlibinc", "-nobuiltininc", "-nocudainc", "-nogpuinc",
    "-nocudalib", "-nogpulib", "--no-cuda-version-check", "-w", "-pedantic", "-pedantic-errors",
    "-pthread", "-m32", "-m64", "-g", "-g0", "-g1", "-g2", "-g3", "-O", "-O0", "-O1", "-O2", "-O3",
    "-Os", "-Oz", "-Og", "-Ofast", "-ffreestanding", "-fno-builtin", "-fms-extensions",
    "-fno-ms-extensions", "-fms-compatibility", "-fno-ms-compatibility", "-fexceptions",
    "-fno-exceptions", "-fcxx-exceptions", "-fno-cxx-exceptions", "-frtti", "-fno-rtti",
    "-fsigned-char", "-funsigned-char", "-fshort-wchar", "-fno-short-wchar", "-fgpu-rdc",
    "-fno-gpu-rdc", "-fopenmp", "-fno-openmp", "-fchar8_t", "-fno-char8_t", "-fgnu-keywords",
    "-fno-gnu-keywords", "-fdeclspec", "-fno-declspec", "-fdelayed-template-parsing",
    "-fno-delayed-template-parsing", "-fcoroutines", "-fno-coroutines", "-ffast-math",
    "-fno-fast-math", "-fsized-deallocation", "-fno-sized-deallocation", "-faligned-allocation",
    "-fno-aligned-allocation", "-fgnu89-inline", "-fasm", "-fno-asm", "-fblocks", "-fno-blocks",
    "-fcuda-approx-transcendentals", "-fno-cuda-approx-transcendentals", "-fpermissive",
    "-fno-permissive", "-fwritable-strings", "-fno-signed-zeros", "-fno-math-errno",
    "-fmath-errno", "-fwrapv", "-fno-wrapv", "-fno-strict-aliasing", "-fstrict-aliasing"};
/* clang-format on */

/* Flags with a joined value that only sets a language or diagnostic limit. */
static const char *const joined_flags[] = {"-std=",
                                           "--std=",
                                           "-fgnuc-version=",
                                           "-fms-compatibility-version=",
                                           "-ftemplate-depth=",
                                           "-fconstexpr-depth=",
                                           "-fconstexpr-steps=",
                                           "-fbracket-depth=",
                                           "-fmacro-backtrace-limit=",
                                           "-ferror-limit=",
                                           "-fopenmp-version=",
                                           "--cuda-path="};

/* Why a flag is refused: the families that write files or load code. */
static const struct {
  const char *prefix;
  const char *why;
} refused[] = {
    {"-Xclang", "it passes arguments to clang's internals, which can write files and load code"},
    {"-mllvm", "it passes arguments to LLVM's internals"},
    {"-Xarch", "it passes arguments to a compilation stage"},
    {"-Xcuda", "it passes arguments to a compilation stage"},
    {"-Xpreprocessor", "it passes arguments to the preprocessor"},
    {"-Wp,", "it passes arguments to the preprocessor (which can write files)"},
    {"-Wa,", "it passes arguments to the assembler"},
    {"-Wl,", "it passes arguments to the linker"},
    {"-fplugin", "it loads code"},
    {"-fpass-plugin", "it loads code"},
    {"-load", "it loads code"},
    {"-o", "it writes a file"},
    {"-M", "it writes a dependency file"},
    {"-H", "it writes the list of included headers"},
    {"--serialize-diagnostics", "it writes a file"},
    {"-dependency", "it writes a file"},
    {"-save-temps", "it writes files"},
    {"-ftime-trace", "it writes a file"},
    {"-fcrash-diagnostics", "it writes files"},
    {"-fmodules", "it reads and writes a module cache"},
    {"-fprofile", "it reads or writes profiles"},
    {"-fproc-stat-report", "it writes a file"},
    {"-fdebug-compilation-dir", "it changes recorded paths"},
    {"--cuda-gpu-arch", "set the architecture with `cuda-arch = sm_XY` instead"},
    {"--offload-arch", "set the architecture with `cuda-arch = sm_XY` instead"},
    {"-include-pch", "it loads a precompiled header"},
    {"-fembed", "it embeds files"},
};

static bool starts(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

static bool in(const char *s, const char *const *list, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(s, list[i]) == 0)
      return true;
  return false;
}

#define COUNT(a) (sizeof a / sizeof a[0])

/* A macro definition must stay one line (a newline would add directives). */
static bool value_ok(const char *flag, const char *v, const char **why) {
  if (strchr(v, '\n') || strchr(v, '\r')) {
    *why = "its value contains a line break";
    return false;
  }
  if (strcmp(flag, "-x") == 0) {
    for (const char *p = v; *p; p++)
      if (!((*p >= 'a' && *p <= 'z') || *p == '+' || *p == '-')) {
        *why = "not a language name";
        return false;
      }
  }
  return true;
}

size_t wl_arg_trusted(const char *const *av, size_t ac, size_t i, const char **why) {
  const char *a = av[i];
  *why = NULL;
  if (a[0] == '@') {
    *why = "response files are not read from untrusted configuration";
    return 0;
  }
  if (a[0] != '-' || a[1] == '\0' || strcmp(a, "--") == 0) {
    *why = "not a flag (inputs cannot be added)";
    return 0;
  }
  for (size_t k = 0; k < COUNT(value_flags); k++) {
    const char *f = value_flags[k];
    size_t n = strlen(f);
    if (strncmp(a, f, n) != 0)
      continue;
    if (a[n] == '\0') {
      if (i + 1 >= ac) {
        *why = "its value is missing";
        return 0;
      }
      return value_ok(f, av[i + 1], why) ? 2 : 0;
    }
    /* joined: -Iinc; a value that looks like a flag is another option
     * (-include-pch) */
    if (a[n] == '-')
      break;
    return value_ok(f, a + n, why) ? 1 : 0;
  }
  for (size_t k = 0; k < COUNT(refused); k++)
    if (starts(a, refused[k].prefix)) {
      *why = refused[k].why;
      return 0;
    }
  if (in(a, plain_flags, COUNT(plain_flags)))
    return 1;
  for (size_t k = 0; k < COUNT(joined_flags); k++)
    if (starts(a, joined_flags[k]) && a[strlen(joined_flags[k])] != '\0')
      return strchr(a, '\n') ? 0 : 1;
  /* warnings (-Wall, -Wno-foo, -Werror=bar) change diagnostics only */
  if (a[1] == 'W' && ((a[2] >= 'a' && a[2] <= 'z') || a[2] == '\0') && !strchr(a, ','))
    return 1;
  *why = "it is not on the list of allowed flags (include paths, macros, language, standard and "
         "warning flags)";
  return 0;
}
