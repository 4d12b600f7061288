/* warplint prelude: stand-in for the toolkit header <sm_30_intrinsics.h>; the built-in prelude declares what it provides. */
#pragma once
