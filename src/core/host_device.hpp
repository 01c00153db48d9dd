// ARENA_HD marks a function compiled for the host and, under nvcc, for the device as well: one
// copy of logic that the judge runs on the host and its device helper runs on the GPU (element
// conversions, the tolerance rule, the counter-based random numbers).
#pragma once

#if defined(__CUDACC__)
#define ARENA_HD __host__ __device__
#else
#define ARENA_HD
#endif
