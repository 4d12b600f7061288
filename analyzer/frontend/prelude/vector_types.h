/* warplint prelude: stand-in for the toolkit header <vector_types.h>; the built-in prelude declares what it provides. */
#pragma once
