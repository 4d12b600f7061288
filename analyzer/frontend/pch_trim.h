/* pch_trim.h - one edit of a saved precompiled header (clang's AST file,
 * an LLVM bitstream): its lists of device functions "to check for deferred
 * diagnostics" and of "unused file-scoped declarations" are made
 * unreadable, so that a file loading the header does not deserialize every
 * device function and static declaration of the CUDA headers at its end
 * (Sema reads both lists whole from every AST file it loads: with the
 * toolkit's headers, about 30 ms of each file's parse, against 2 ms for
 * the rest of loading the header). Used by pch.c on the files it builds. */
#ifndef WARPLINT_PCH_TRIM_H
#define WARPLINT_PCH_TRIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum wl_pch_trim_result {
  WL_PCH_TRIMMED,      /* the lists' records now have codes the reader skips */
  WL_PCH_NO_LIST,      /* an AST file of the known format without the lists */
  WL_PCH_UNKNOWN_FILE, /* not an AST file of the known format: left as it is */
} wl_pch_trim_result;

/* The AST file format version (clang's serialization::VERSION_MAJOR) whose
 * record codes the edit knows: libclang 19. */
#define WL_PCH_AST_MAJOR 31

/* Edits the file's bytes in place (the same length: only the records' codes
 * change). Nothing is changed unless the result is WL_PCH_TRIMMED. */
wl_pch_trim_result wl_pch_trim(unsigned char *data, size_t len);

/* The same on a file (read, and its changed bytes written back in place);
 * false when writing failed (the file may then be damaged). A file that
 * cannot be read (or is over WL_READ_MAX) is left as it is: true,
 * WL_PCH_UNKNOWN_FILE. */
bool wl_pch_trim_file(const char *path, wl_pch_trim_result *result);

#endif
