/* cli.h - command line: options, inputs, the run over all files, output and
 * the exit code. */
#ifndef WARPLINT_CLI_H
#define WARPLINT_CLI_H

#include <stdio.h>

enum {
  WL_EXIT_CLEAN = 0,    /* no findings */
  WL_EXIT_FINDINGS = 1, /* findings reported */
  WL_EXIT_ERROR = 2     /* usage error, or an input that could not be analyzed */
};

/* Runs warplint with argv; returns the process exit code. */
int wl_cli_main(int argc, char **argv, FILE *out, FILE *err);

#endif
