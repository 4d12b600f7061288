/* compdb.h - compile_commands.json (read with libclang's compilation-database
 * API) and the translation of its nvcc (or clang/gcc) command lines into the
 * few clang arguments that matter to warplint: include paths, macros, the
 * language standard, forced includes and the GPU architecture. */
#ifndef WARPLINT_COMPDB_H
#define WARPLINT_COMPDB_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "paths.h"

typedef enum wl_lang {
  WL_LANG_UNKNOWN = 0, /* no -x: decided by the file's extension */
  WL_LANG_CUDA,        /* -x cu, -x cuda */
  WL_LANG_OTHER        /* -x c++, -x c, ...: not a CUDA compilation */
} wl_lang;

/* What one compile command means to warplint. */
typedef struct wl_compile_flags {
  wl_vec args;   /* char* (owned): clang arguments, relative paths made absolute */
  unsigned arch; /* compute capability chosen from -arch/-gencode/...; 0: none named */
  wl_lang lang;
  wl_vec notes; /* char* (owned): flags that were not understood (for --verbose) */
} wl_compile_flags;

void wl_compile_flags_init(wl_compile_flags *f);
void wl_compile_flags_free(wl_compile_flags *f);

/* Translates a compiler command line (argv[0] is the compiler: nvcc, clang,
 * gcc, ...) run in directory dir (NULL: the current one). Unknown flags are
 * dropped with a note; nothing fails. --options-file/-optf and @file are
 * read relative to dir. */
void wl_translate_command(const char *const *argv, size_t argc, const char *dir,
                          wl_compile_flags *out);

/* The architecture of several (-gencode ...): the lowest one that is sm_70 or
 * newer, else the first one named; 0 when n is 0. */
unsigned wl_pick_arch(const unsigned *archs, size_t n);

/* Splits a command-line string the way a POSIX shell splits words (blanks,
 * '...', "...", backslash) into out (char*, owned by the caller). Returns
 * false (with what is wrong in err) for an unterminated quote; the words
 * before it are still in out. */
bool wl_split_args(const char *s, wl_vec *out, wl_buf *err);

typedef struct wl_compdb_entry {
  char *file; /* canonical path */
  char *dir;  /* the entry's "directory" */
  wl_compile_flags flags;
} wl_compdb_entry;

typedef struct wl_compdb {
  wl_compdb_entry *v; /* sorted by file, one entry per file (the first one in the database) */
  size_t n;
  size_t duplicates; /* entries dropped because their file came earlier */
} wl_compdb;

/* Loads path: a directory holding compile_commands.json, or the JSON file
 * itself (any name). Returns false with a one-line reason in err. */
bool wl_compdb_load(const char *path, wl_compdb *db, wl_buf *err);
/* The entry of a canonical path, or NULL. */
const wl_compdb_entry *wl_compdb_find(const wl_compdb *db, const char *canonical);
void wl_compdb_free(wl_compdb *db);

#endif
