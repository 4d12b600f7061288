/* diag.h - findings (what rules report), their notes and fixes, and the
 * ordered, de-duplicated list that the emitters print. */
#ifndef WARPLINT_DIAG_H
#define WARPLINT_DIAG_H

#include <stdbool.h>
#include <stddef.h>

#include "ir.h"

typedef enum wl_severity { WL_SEV_NOTE = 0, WL_SEV_WARNING = 1, WL_SEV_ERROR = 2 } wl_severity;

const char *wl_severity_name(wl_severity s); /* "note", "warning", "error" */
bool wl_severity_parse(const char *s, wl_severity *out);

typedef struct wl_note {
  char *file;
  unsigned line, col;
  char *message;
} wl_note;

/* One replacement in a file: bytes [offset, offset+length) become text. */
typedef struct wl_edit {
  char *file;
  unsigned offset, length;
  char *text;
} wl_edit;

typedef struct wl_finding {
  const char *rule; /* static rule id */
  wl_severity severity;
  char *file;                 /* path as the user gave it */
  unsigned line, col;         /* 1-based; col counts bytes like clang */
  unsigned end_line, end_col; /* one past the end of the flagged range */
  unsigned offset;            /* byte offset of line:col in the file */
  char *message;
  char *line_text; /* the source line, without its newline; "" when unknown */
  wl_note *notes;
  size_t nnotes;
  char *suggestion; /* suggested code when no automatic fix is safe; may be NULL */
  wl_edit *edits;   /* automatic fix (all or nothing); may be empty */
  size_t nedits;
} wl_finding;

typedef struct wl_findings {
  wl_finding *v;
  size_t n, cap;
  /* what was not analyzed (a function nested too deeply, an analysis that ran
   * out of its work budget): reported on stderr and in JSON and SARIF, never
   * a finding, never a change of the exit status */
  wl_note *notices;
  size_t nnotices;
} wl_findings;

void wl_findings_init(wl_findings *f);
void wl_findings_free(wl_findings *f);
/* Adds a finding and returns it (valid until the next add). Strings are copied. */
wl_finding *wl_findings_add(wl_findings *f, const char *rule, wl_severity sev, const char *file,
                            unsigned line, unsigned col, unsigned end_line, unsigned end_col,
                            const char *message);
void wl_finding_add_note(wl_finding *fd, const char *file, unsigned line, unsigned col,
                         const char *message);
void wl_finding_add_edit(wl_finding *fd, const char *file, unsigned offset, unsigned length,
                         const char *text);
void wl_findings_add_notice(wl_findings *f, const char *file, unsigned line, unsigned col,
                            const char *message);
void wl_finding_set_line_text(wl_finding *fd, const char *text, size_t len);
/* Moves every finding of src to the end of dst; src ends empty. */
void wl_findings_move(wl_findings *dst, wl_findings *src);
/* Sorts by file, line, column, rule, message and merges duplicates (the same
 * site reported from several expansions, instantiations or files including
 * the same header: notes are merged, identical notes kept once, and the
 * "expanded from macro" notes beyond the first WL_MAX_EXPANSION_NOTES
 * counted in one last note); notices are sorted and de-duplicated too. */
#define WL_MAX_EXPANSION_NOTES 3
void wl_findings_sort_dedup(wl_findings *f);
void wl_finding_free(wl_finding *fd);

/* A stable fingerprint of a finding that survives line shifts: a hex hash of
 * rule, file, the line's whitespace-normalized text and its occurrence index
 * among findings with the same (rule, file, text). Call after sort_dedup. */
void wl_findings_fingerprints(const wl_findings *f, char (*out)[17]);
/* The same with each file taken canonical and relative to root (an absolute
 * directory; NULL: as spelled), so that ".", "src/.." and an absolute path
 * give the same fingerprints (the JSON format's, SARIF's partialFingerprints). */
void wl_findings_fingerprints_at(const wl_findings *f, const char *root, char (*out)[17]);

#endif
