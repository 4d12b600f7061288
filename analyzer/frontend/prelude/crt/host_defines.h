/* warplint prelude: stand-in for the toolkit header <crt/host_defines.h>; the built-in prelude declares what it provides. */
#pragma once
