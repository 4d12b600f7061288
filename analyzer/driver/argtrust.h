/* argtrust.h - the clang arguments that untrusted sources (a repository's
 * .warplint, its compile_commands.json) may pass to libclang: an allow-list of
 * include paths, macros, language and standard flags and flags that only
 * change language semantics. Anything that writes files or loads code
 * (-Xclang, -H, -M*, -o, -fplugin, -load, @response files, ...) is refused.
 * Arguments typed by the user after `--` are not filtered. */
#ifndef WARPLINT_ARGTRUST_H
#define WARPLINT_ARGTRUST_H

#include <stdbool.h>
#include <stddef.h>

/* Checks the argument av[i] (with its value av[i + 1] when the flag takes a
 * separate one). Returns how many words it takes (1 or 2) when allowed; 0
 * when refused, with a short reason in why (a static string). */
size_t wl_arg_trusted(const char *const *av, size_t ac, size_t i, const char **why);

#endif
