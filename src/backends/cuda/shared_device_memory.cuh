// Device memory shared between processes by file descriptor: the judge's device helper allocates
// it (CUDA's virtual memory management, a POSIX fd handle) and a runner maps it, so that the
// buffers a solution works on belong to a trusted process that can fill and check them on the
// device itself (judge/device_plane.hpp). Header-only: the runner and the helper include it.
#pragma once

#include <cuda.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

namespace arena::cuda {

inline std::string driver_error(CUresult r, const char* what) {
  const char* name = nullptr;
  const char* text = nullptr;
  cuGetErrorName(r, &name);
  cuGetErrorString(r, &text);
  return std::string(what) + ": " + (text ? text : "unknown error") + " (" + (name ? name : "?") + ")";
}

// Read-write access to [pointer, pointer + bytes) from `device`.
inline CUresult grant_access(CUdeviceptr pointer, size_t bytes, int device) {
  CUmemAccessDesc access{};
  access.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  access.location.id = device;
  access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  return cuMemSetAccess(pointer, bytes, &access, 1);
}

// One allocation, owned: created, mapped into this process, exportable as a POSIX fd.
class SharedAllocation {
 public:
  // Allocates at least `bytes` on `device`; "" or why not.
  std::string create(size_t bytes, int device) {
    CUmemAllocationProp prop{};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = device;
    prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    size_t granularity = 0;
    CUresult r = cuMemGetAllocationGranularity(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
    if (r != CUDA_SUCCESS) return driver_error(r, "cuMemGetAllocationGranularity");
    bytes_ = (std::max<size_t>(bytes, 1) + granularity - 1) / granularity * granularity;
    if ((r = cuMemCreate(&handle_, bytes_, &prop, 0)) != CUDA_SUCCESS) return driver_error(r, "cuMemCreate");
    created_ = true;
    if ((r = cuMemAddressReserve(&pointer_, bytes_, granularity, 0, 0)) != CUDA_SUCCESS)
      return driver_error(r, "cuMemAddressReserve");
    if ((r = cuMemMap(pointer_, bytes_, 0, handle_, 0)) != CUDA_SUCCESS) return driver_error(r, "cuMemMap");
    mapped_ = true;
    if ((r = grant_access(pointer_, bytes_, device)) != CUDA_SUCCESS) return driver_error(r, "cuMemSetAccess");
    return "";
  }
  // A new descriptor for it (the caller closes it), or -1.
  int export_fd() const {
    int fd = -1;
    return cuMemExportToShareableHandle(&fd, handle_, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0) == CUDA_SUCCESS
               ? fd
               : -1;
  }
  void release() {
    if (mapped_) cuMemUnmap(pointer_, bytes_);
    if (pointer_ != 0) cuMemAddressFree(pointer_, bytes_);
    if (created_) cuMemRelease(handle_);
    mapped_ = created_ = false;
    pointer_ = 0;
  }
  void* pointer() const { return reinterpret_cast<void*>(pointer_); }
  size_t bytes() const { return bytes_; }

 private:
  CUmemGenericAllocationHandle handle_{};
  CUdeviceptr pointer_ = 0;
  size_t bytes_ = 0;
  bool created_ = false;
  bool mapped_ = false;
};

// Another process's allocation, mapped here from its fd (the runner's side).
class ImportedMemory {
 public:
  // Maps the `bytes` (the allocation's whole size) behind `fd`; "" or why not. The fd may be
  // closed afterwards.
  std::string map(int fd, size_t bytes, int device) {
    CUmemGenericAllocationHandle handle{};
    CUresult r = cuMemImportFromShareableHandle(&handle, reinterpret_cast<void*>(static_cast<intptr_t>(fd)),
                                                CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
    if (r != CUDA_SUCCESS) return driver_error(r, "cuMemImportFromShareableHandle");
    CUdeviceptr p = 0;
    if ((r = cuMemAddressReserve(&p, bytes, 0, 0, 0)) != CUDA_SUCCESS) {
      cuMemRelease(handle);
      return driver_error(r, "cuMemAddressReserve");
    }
    r = cuMemMap(p, bytes, 0, handle, 0);
    cuMemRelease(handle);  // the mapping keeps the memory alive
    if (r != CUDA_SUCCESS) {
      cuMemAddressFree(p, bytes);
      return driver_error(r, "cuMemMap");
    }
    pointer_ = p;
    bytes_ = bytes;
    if ((r = grant_access(p, bytes, device)) != CUDA_SUCCESS) {
      unmap();
      return driver_error(r, "cuMemSetAccess");
    }
    return "";
  }
  void unmap() {
    if (pointer_ == 0) return;
    cuMemUnmap(pointer_, bytes_);
    cuMemAddressFree(pointer_, bytes_);
    pointer_ = 0;
  }
  bool mapped() const { return pointer_ != 0; }
  void* pointer() const { return reinterpret_cast<void*>(pointer_); }

 private:
  CUdeviceptr pointer_ = 0;
  size_t bytes_ = 0;
};

}  // namespace arena::cuda
