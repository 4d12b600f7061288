/* warplint prelude: stand-in for <cooperative_groups/scan.h>; the scans are declared in <cooperative_groups.h>. */
#pragma once
#include <cooperative_groups.h>
