/* warplint prelude: stand-in for the toolkit header <sm_35_intrinsics.h>; the built-in prelude declares what it provides. */
#pragma once
