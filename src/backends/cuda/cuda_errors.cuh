// How the CUDA runner sorts CUDA errors into the judge's failure classes.
#pragma once

#include <cuda_runtime.h>

namespace arena::cuda {

// Errors a launch reports at once, leaving the context usable: the request was refused.
inline bool is_launch_refusal(cudaError_t e) {
  switch (e) {
    case cudaErrorInvalidConfiguration:
    case cudaErrorLaunchOutOfResources:
    case cudaErrorInvalidValue:
    case cudaErrorInvalidDeviceFunction:
    case cudaErrorNoKernelImageForDevice:
    case cudaErrorInvalidPitchValue:
    case cudaErrorCooperativeLaunchTooLarge:
      return true;
    default:
      return false;
  }
}

inline bool is_out_of_memory(cudaError_t e) { return e == cudaErrorMemoryAllocation; }

}  // namespace arena::cuda
