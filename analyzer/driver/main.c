/* main.c - the warplint command: the only place that calls exit(). */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

int main(int argc, char **argv) { return wl_cli_main(argc, argv, stdout, stderr); }
