/* warplint prelude: stand-in for the toolkit header <cuda_runtime.h>; the built-in prelude declares what it provides. */
#pragma once
