// Included by src/c.cu only, which is compiled with -DUSE_VOTE.
#pragma once
#ifdef USE_VOTE
__device__ unsigned vote_all(int p) { return __ballot(p); }
#endif
