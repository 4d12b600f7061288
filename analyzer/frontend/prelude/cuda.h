/* warplint prelude: stand-in for the toolkit header <cuda.h>; the built-in prelude declares what it provides. */
#pragma once
