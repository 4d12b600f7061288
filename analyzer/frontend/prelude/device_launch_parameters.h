/* warplint prelude: stand-in for the toolkit header <device_launch_parameters.h>; the built-in prelude declares what it provides. */
#pragma once
