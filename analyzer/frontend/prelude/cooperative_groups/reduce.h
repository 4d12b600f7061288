/* warplint prelude: stand-in for <cooperative_groups/reduce.h>; reduce() is declared in <cooperative_groups.h>. */
#pragma once
#include <cooperative_groups.h>
