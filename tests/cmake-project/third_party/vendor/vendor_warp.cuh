// A vendored header, included through -isystem.
#pragma once

#define VENDOR_BROADCAST(v) __shfl((v), 0)
