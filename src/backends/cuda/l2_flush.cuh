// Cold-L2 timing: before each sample, read a buffer twice the L2's size so that nothing of the
// previous call stays cached. Read-only after the buffer's one initial write, so the sweep leaves
// no dirty lines whose write-back would land in the next timed window; and persisting-L2
// state is reset, so an access-policy window cannot keep data resident.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace arena::cuda {

__global__ void sweep_read(const uint4* buffer, size_t count, unsigned int* sink) {
  uint4 acc = make_uint4(0, 0, 0, 0);
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    uint4 v = buffer[i];
    acc.x ^= v.x;
    acc.y ^= v.y;
    acc.z ^= v.z;
    acc.w ^= v.w;
  }
  if ((acc.x ^ acc.y ^ acc.z ^ acc.w) == 0x9E3779B9u) *sink = 1;  // never true: keeps the loads
}

class L2Flush {
 public:
  // Allocates 2 x the device's L2 (at least 64 MiB). Returns false if it cannot.
  bool init(int device) {
    int l2 = 0;
    cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device);
    bytes_ = static_cast<size_t>(l2) * 2;
    if (bytes_ < (size_t{64} << 20)) bytes_ = size_t{64} << 20;
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    blocks_ = sms > 0 ? sms * 4 : 512;
    if (cudaMalloc(&buffer_, bytes_) != cudaSuccess || cudaMalloc(&sink_, sizeof(unsigned int)) != cudaSuccess)
      return false;
    cudaMemset(buffer_, 0x5A, bytes_);
    cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0);
    return cudaDeviceSynchronize() == cudaSuccess;
  }

  // Before every sample: undo() then the sweep, on `stream`.
  void flush(cudaStream_t stream) const {
    undo(stream);
    sweep(stream);
  }

  // Reads the whole buffer on `stream`, evicting everything else from the L2.
  void sweep(cudaStream_t stream) const {
    sweep_read<<<blocks_, 512, 0, stream>>>(static_cast<const uint4*>(buffer_), bytes_ / sizeof(uint4), sink_);
  }

  // Whatever the solution set up in its last call (a persisting-L2 limit, an access-policy window
  // on the stream it was given) is undone, and persisting lines are demoted to normal, so the
  // sweep evicts them like any other line. A held call's sweep is the hold's (hold_kernel.cuh:
  // after the release, so that nothing a copy engine brought in while the call was enqueued stays).
  void undo(cudaStream_t stream) const {
    size_t limit = 0;
    if (cudaDeviceGetLimit(&limit, cudaLimitPersistingL2CacheSize) == cudaSuccess && limit != 0)
      cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0);
    cudaStreamAttrValue window{};
    if (cudaStreamGetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &window) == cudaSuccess &&
        window.accessPolicyWindow.num_bytes != 0) {
      window.accessPolicyWindow = cudaAccessPolicyWindow{};
      cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &window);
    }
    cudaGetLastError();  // none of the above may leave an error for the next call to find
    cudaCtxResetPersistingL2Cache();
  }

  // The buffer as 16-byte words, for a sweep made elsewhere (the hold's).
  const uint4* words() const { return static_cast<const uint4*>(buffer_); }
  size_t word_count() const { return bytes_ / sizeof(uint4); }
  size_t bytes() const { return bytes_; }

 private:
  void* buffer_ = nullptr;
  unsigned int* sink_ = nullptr;
  size_t bytes_ = 0;
  int blocks_ = 0;
};

}  // namespace arena::cuda
