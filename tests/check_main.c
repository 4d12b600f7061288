/* check_main.c - the one Check runner: every suite of suites.def, or those named on the command
 * line. */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WL_SUITE(name) Suite *wl_suite_##name(void);
#include "suites.def"
#undef WL_SUITE

int main(int argc, char **argv) {
  static const struct {
    const char *name;
    Suite *(*make)(void);
  } all[] = {
#define WL_SUITE(name) {#name, wl_suite_##name},
#include "suites.def"
#undef WL_SUITE
  };
  SRunner *sr = NULL;
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
    bool want = argc < 2;
    for (int a = 1; a < argc; a++)
      if (strcmp(argv[a], all[i].name) == 0)
        want = true;
    if (!want)
      continue;
    if (!sr)
      sr = srunner_create(all[i].make());
    else
      srunner_add_suite(sr, all[i].make());
  }
  if (!sr) {
    fprintf(stderr, "check_main: no such suite\n");
    return 2;
  }
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
