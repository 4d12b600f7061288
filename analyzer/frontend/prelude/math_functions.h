/* warplint prelude: stand-in for the toolkit header <math_functions.h>; the built-in prelude declares what it provides. */
#pragma once
