/* warplint prelude: stand-in for the toolkit header <cuda_runtime_api.h>; the built-in prelude declares what it provides. */
#pragma once
