/* warplint prelude: stand-in for the toolkit header <sm_60_atomic_functions.h>; the built-in prelude declares what it provides. */
#pragma once
