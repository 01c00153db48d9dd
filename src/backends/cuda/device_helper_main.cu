// arena-device-helper: the judge's trusted hands on the device (judge/device_plane.hpp).
//
// Holds no solution code. It allocates device buffers that runners map by file descriptor, and
// moves, fills and compares them on the device at the judge's request, so that a timed call's
// inputs are laid out and its outputs checked without the tensors crossing to the host. Same
// transport as a runner (judge/runner_protocol.hpp): requests on a socket, a staging region in
// a memfd shared with the judge.
//
//   arena-device-helper <socket-fd> <region-fd> <unused> <device>

#include <cuda.h>
#include <cuda_runtime.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>

#include "backends/cuda/shared_device_memory.cuh"
#include "backends/runner_io.hpp"
#include "core/dtype_bits.hpp"
#include "judge/element_draw.hpp"
#include "judge/tolerance_rule.hpp"

namespace {

using arena::protocol::Op;
using arena::protocol::Reply;
using arena::protocol::Request;
using arena::runner::fail;

constexpr int kExitSetup = arena::protocol::kExitSetup;
constexpr int kExitCuda = 89;

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) fail(std::string(what) + ": " + cudaGetErrorString(e), kExitCuda);
}

// Writes `elements` copies of the low `size` bytes of `bits`.
__global__ void fill_pattern(unsigned char* p, uint64_t elements, uint32_t size, uint64_t bits) {
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  for (uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x; i < elements; i += stride) {
    switch (size) {
      case 1: p[i] = static_cast<unsigned char>(bits); break;
      case 2: reinterpret_cast<uint16_t*>(p)[i] = static_cast<uint16_t>(bits); break;
      case 4: reinterpret_cast<uint32_t*>(p)[i] = static_cast<uint32_t>(bits); break;
      default: reinterpret_cast<uint64_t*>(p)[i] = bits; break;
    }
  }
}

// Counts the bytes of [a, a + bytes) that differ from [b, b + bytes) into out[0], and the first
// differing byte's offset into out[1] (atomicMin; ~0 when none). a and b lie at the same offset
// from 16-byte aligned bases, so one head of single bytes aligns both.
__global__ void compare_bytes(const unsigned char* a, const unsigned char* b, uint64_t bytes,
                              unsigned long long* out) {
  uint64_t head = (16 - reinterpret_cast<uintptr_t>(a) % 16) % 16;
  if (head > bytes) head = bytes;
  const uint64_t words = (bytes - head) / 16;
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  const uint64_t tid = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x;
  unsigned long long count = 0, first = ~0ull;
  auto single = [&](uint64_t i) {
    if (a[i] == b[i]) return;
    ++count;
    first = i < first ? i : first;
  };
  if (tid < head) single(tid);
  const uint4* x = reinterpret_cast<const uint4*>(a + head);
  const uint4* y = reinterpret_cast<const uint4*>(b + head);
  for (uint64_t i = tid; i < words; i += stride) {
    uint4 p = x[i], q = y[i];
    unsigned int d[4] = {__vcmpne4(p.x, q.x), __vcmpne4(p.y, q.y), __vcmpne4(p.z, q.z), __vcmpne4(p.w, q.w)};
    for (int k = 0; k < 4; ++k) {
      if (d[k] == 0) continue;
      count += static_cast<unsigned long long>(__popc(d[k]) / 8);
      unsigned long long at = head + i * 16 + k * 4 + static_cast<unsigned long long>(__ffs(d[k]) - 1) / 8;
      first = at < first ? at : first;
    }
  }
  for (uint64_t i = head + words * 16 + tid; i < bytes; i += stride) single(i);
  if (count != 0) {
    atomicAdd(&out[0], count);
    atomicMin(&out[1], first);
  }
}

// Counts the elements of `got` out of tolerance of `expected` into out[0] and the first one's
// index into out[1] (atomicMin): the host checker's rule (judge/tolerance_rule.hpp), the same
// element loads (core/dtype_bits.hpp), no fused multiply-add (the helper is built --fmad=false).
__global__ void count_out_of_tolerance(const unsigned char* got, const unsigned char* expected, uint64_t elements,
                                       arena::DType dtype, double atol, double rtol, unsigned long long* out) {
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  unsigned long long count = 0, first = ~0ull;
  for (uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x; i < elements; i += stride) {
    double bound = 0;
    if (arena::within_tolerance(arena::dtype_bits::load(dtype, got, i), arena::dtype_bits::load(dtype, expected, i),
                                atol, rtol, &bound))
      continue;
    ++count;
    first = i < first ? i : first;
  }
  if (count != 0) {
    atomicAdd(&out[0], count);
    atomicMin(&out[1], first);
  }
}

// Element i of an input tensor, drawn as the host's generator draws it (judge/element_draw.hpp)
// and stored as its dtype (core/dtype_bits.hpp).
__global__ void draw_elements(unsigned char* p, uint64_t elements, arena::DType dtype, arena::ElementDraw d) {
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  for (uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x; i < elements; i += stride)
    arena::dtype_bits::store(dtype, p, i, arena::draw_element(d, i));
}

// Copies `bytes` from `from` to `to` with this block row's threads: words of W where both are
// equally aligned to W (the caller picks W), single bytes for the head and the tail.
template <typename W>
__device__ void copy_words(unsigned char* to, const unsigned char* from, uint64_t bytes, uint64_t tid,
                           uint64_t stride) {
  uint64_t head = (sizeof(W) - reinterpret_cast<uintptr_t>(to) % sizeof(W)) % sizeof(W);
  if (head > bytes) head = bytes;
  for (uint64_t i = tid; i < head; i += stride) to[i] = from[i];
  const uint64_t words = (bytes - head) / sizeof(W);
  const W* f = reinterpret_cast<const W*>(from + head);
  W* t = reinterpret_cast<W*>(to + head);
  for (uint64_t i = tid; i < words; i += stride) t[i] = f[i];
  for (uint64_t i = head + words * sizeof(W) + tid; i < bytes; i += stride) to[i] = from[i];
}

// Every move of a list: blockIdx.y picks the move, the x blocks share its bytes, in the widest
// words that source and destination are equally aligned to.
__global__ void apply_moves(unsigned char* dst, const unsigned char* src, const uint64_t* moves) {
  const uint64_t* m = moves + 3 * blockIdx.y;
  const unsigned char* from = src + m[0];
  unsigned char* to = dst + m[1];
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  const uint64_t tid = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x;
  const uintptr_t skew = reinterpret_cast<uintptr_t>(from) ^ reinterpret_cast<uintptr_t>(to);
  if (skew % 16 == 0) {
    copy_words<uint4>(to, from, m[2], tid, stride);
  } else if (skew % 8 == 0) {
    copy_words<uint2>(to, from, m[2], tid, stride);
  } else if (skew % 4 == 0) {
    copy_words<unsigned int>(to, from, m[2], tid, stride);
  } else if (skew % 2 == 0) {
    copy_words<unsigned short>(to, from, m[2], tid, stride);
  } else {
    copy_words<unsigned char>(to, from, m[2], tid, stride);
  }
}

struct Buffers {
  std::map<uint64_t, std::unique_ptr<arena::cuda::SharedAllocation>> device;
  unsigned char* staging = nullptr;
  size_t staging_bytes = 0;
  uint64_t next_id = 1;

  // Buffer `id` at `offset` with room for `bytes`, or a fatal error naming `what`.
  unsigned char* at(uint64_t id, uint64_t offset, uint64_t bytes, const char* what) const {
    unsigned char* base = nullptr;
    size_t size = 0;
    if (id == 0) {
      base = staging;
      size = staging_bytes;
    } else if (auto it = device.find(id); it != device.end()) {
      base = static_cast<unsigned char*>(it->second->pointer());
      size = it->second->bytes();
    }
    if (base == nullptr || offset > size || bytes > size - offset)
      fail(std::string(what) + ": outside buffer " + std::to_string(id), kExitSetup);
    return base + offset;
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: %s <socket-fd> <region-fd> <unused> <device>\n(started by the judge)\n", argv[0]);
    return 2;
  }
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  arena::runner::g_socket = std::atoi(argv[1]);
  const int region_fd = std::atoi(argv[2]);
  const int device = std::atoi(argv[4]);
  auto setup = [](cudaError_t e, const char* what) {
    if (e != cudaSuccess) fail(std::string("device helper setup failed at ") + what + ": " + cudaGetErrorString(e), kExitSetup);
  };
  setup(cudaSetDevice(device), "cudaSetDevice");
  setup(cudaFree(nullptr), "context creation");
  int fd_handles = 0;
  CUdevice dev = 0;
  cuDeviceGet(&dev, device);
  cuDeviceGetAttribute(&fd_handles, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED, dev);
  if (fd_handles == 0) fail("the device cannot share memory by file descriptor", kExitSetup);
  cudaStream_t stream = nullptr;
  setup(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  constexpr uint64_t kMaxMoves = arena::protocol::kDevMovesPerRequest;  // a launch's grid height
  uint64_t* move_list = nullptr;         // a list of moves, on the device
  setup(cudaMalloc(&move_list, kMaxMoves * 24), "cudaMalloc");
  unsigned long long* results = nullptr;  // per compared range: count, first
  constexpr int kMaxCompare = 1024;
  setup(cudaMalloc(&results, sizeof(unsigned long long) * 2 * kMaxCompare), "cudaMalloc");
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  const int blocks = sms > 0 ? sms * 4 : 256;
  // Trusted, not sandboxed: it runs no solution code.
  arena::runner::reply_ready(std::string(arena::protocol::kSandboxOff) + "the device helper runs no solution code");

  Buffers b;
  for (;;) {
    Request q;
    if (!arena::runner::receive(q)) return 0;
    Reply r;
    const uint64_t* a = q.args;
    switch (q.op) {
      case Op::kQuit:
        return 0;
      case Op::kMap: {  // the staging region
        if (b.staging != nullptr) {
          cudaHostUnregister(b.staging);
          munmap(b.staging, b.staging_bytes);
        }
        void* p = mmap(nullptr, q.region_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, region_fd, 0);
        if (p == MAP_FAILED) fail(std::string("mmap: ") + std::strerror(errno), kExitSetup);
        b.staging = static_cast<unsigned char*>(p);
        b.staging_bytes = q.region_bytes;
        if (cudaHostRegister(p, q.region_bytes, cudaHostRegisterDefault) != cudaSuccess) cudaGetLastError();
        break;
      }
      case Op::kDevAlloc: {
        auto alloc = std::make_unique<arena::cuda::SharedAllocation>();
        std::string why = alloc->create(a[0], device);
        if (!why.empty()) {
          // An answer, not a death: the judge goes on without this buffer (its host path).
          alloc->release();
          cudaGetLastError();
          std::snprintf(r.message, sizeof r.message, "allocating %llu bytes: %s", static_cast<unsigned long long>(a[0]),
                        why.c_str());
          break;
        }
        r.result[0] = b.next_id++;
        r.result[1] = alloc->bytes();
        int fd = a[1] != 0 ? alloc->export_fd() : -1;
        if (a[1] != 0 && fd < 0) fail("exporting a device buffer failed", kExitSetup);
        b.device[r.result[0]] = std::move(alloc);
        if (fd >= 0) {
          arena::runner::send_reply_with_fd(r, fd);
          close(fd);
          continue;
        }
        break;
      }
      case Op::kDevFree: {
        auto it = b.device.find(a[0]);
        if (it != b.device.end()) {
          check(cudaDeviceSynchronize(), "before freeing");
          it->second->release();
          b.device.erase(it);
        }
        break;
      }
      case Op::kDevCopy: {
        unsigned char* dst = b.at(a[0], a[1], a[4], "copy");
        const unsigned char* src = b.at(a[2], a[3], a[4], "copy");
        check(cudaMemcpyAsync(dst, src, a[4], cudaMemcpyDefault, stream), "copy");
        break;
      }
      case Op::kDevMoves: {
        const uint64_t* moves = reinterpret_cast<const uint64_t*>(b.at(0, a[2], a[3] * 24, "moves"));
        uint64_t largest = 0;
        for (uint64_t i = 0; i < a[3]; ++i) {
          const uint64_t bytes = moves[3 * i + 2];
          b.at(a[0], moves[3 * i + 1], bytes, "move");  // inside both buffers, or a fatal error
          b.at(a[1], moves[3 * i], bytes, "move");
          largest = std::max(largest, bytes);
        }
        if (a[0] == 0 || a[1] == 0 || a[3] > kMaxMoves) {
          // From or to the staging region, or too long a list: one copy each.
          for (uint64_t i = 0; i < a[3]; ++i)
            check(cudaMemcpyAsync(b.at(a[0], moves[3 * i + 1], 0, "move"), b.at(a[1], moves[3 * i], 0, "move"),
                                  moves[3 * i + 2], cudaMemcpyDefault, stream),
                  "move");
        } else if (a[3] > 0) {
          // One launch for the whole list (a reordering is up to 256 pieces per axis).
          check(cudaMemcpyAsync(move_list, moves, a[3] * 24, cudaMemcpyHostToDevice, stream), "move");
          const unsigned int per_move =
              static_cast<unsigned int>(std::clamp<uint64_t>(largest / (256 * 16 * 4), 1, 1024));
          apply_moves<<<dim3(per_move, static_cast<unsigned int>(a[3])), 256, 0, stream>>>(
              b.at(a[0], 0, 0, "move"), b.at(a[1], 0, 0, "move"), move_list);
          check(cudaGetLastError(), "move");
        }
        break;
      }
      case Op::kDevFill: {
        const uint32_t size = static_cast<uint32_t>(a[3]);
        if (size != 1 && size != 2 && size != 4 && size != 8) fail("fill: element size", kExitSetup);
        unsigned char* p = b.at(a[0], a[1], a[2] * size, "fill");
        if (a[0] == 0 || reinterpret_cast<uintptr_t>(p) % size != 0) fail("fill: misaligned", kExitSetup);
        if (a[2] > 0) fill_pattern<<<blocks, 256, 0, stream>>>(p, a[2], size, a[4]);
        check(cudaGetLastError(), "fill");
        break;
      }
      case Op::kDevCompare: {
        if (a[3] > kMaxCompare) fail("compare: too many ranges", kExitSetup);
        uint64_t* ranges = reinterpret_cast<uint64_t*>(b.at(0, a[2], a[3] * 40, "compare"));
        check(cudaMemsetAsync(results, 0, sizeof(unsigned long long) * 2 * a[3], stream), "compare");
        for (uint64_t i = 0; i < a[3]; ++i) {
          const uint64_t offset = ranges[3 * i], bytes = ranges[3 * i + 1];
          const unsigned char* x = b.at(a[0], offset, bytes, "compare");
          const unsigned char* y = b.at(a[1], ranges[3 * i + 2], bytes, "compare");
          if (a[0] == 0 || a[1] == 0) fail("compare: device buffers only", kExitSetup);
          check(cudaMemsetAsync(results + 2 * i + 1, 0xFF, sizeof(unsigned long long), stream), "compare");
          if (bytes > 0) compare_bytes<<<blocks, 256, 0, stream>>>(x, y, bytes, results + 2 * i);
        }
        check(cudaGetLastError(), "compare");
        uint64_t* out = ranges + 3 * a[3];
        check(cudaMemcpyAsync(out, results, sizeof(unsigned long long) * 2 * a[3], cudaMemcpyDeviceToHost, stream),
              "compare");
        check(cudaStreamSynchronize(stream), "compare");
        for (uint64_t i = 0; i < a[3]; ++i) r.result[0] += out[2 * i] != 0 ? 1 : 0;
        break;
      }
      case Op::kDevCheck: {
        const uint64_t* params = reinterpret_cast<const uint64_t*>(b.at(0, a[5], 24, "check"));
        if (params[0] > static_cast<uint64_t>(arena::DType::kUint8)) fail("check: unknown dtype", kExitSetup);
        const auto dtype = static_cast<arena::DType>(params[0]);
        const uint64_t size = arena::dtype_bits::size(dtype);
        if (a[0] == 0 || a[2] == 0) fail("check: device buffers only", kExitSetup);
        const unsigned char* got = b.at(a[0], a[1], a[4] * size, "check");
        const unsigned char* expected = b.at(a[2], a[3], a[4] * size, "check");
        if (reinterpret_cast<uintptr_t>(got) % size != 0 || reinterpret_cast<uintptr_t>(expected) % size != 0)
          fail("check: misaligned", kExitSetup);
        double atol = 0, rtol = 0;
        std::memcpy(&atol, &params[1], 8);
        std::memcpy(&rtol, &params[2], 8);
        check(cudaMemsetAsync(results, 0, sizeof(unsigned long long), stream), "check");
        check(cudaMemsetAsync(results + 1, 0xFF, sizeof(unsigned long long), stream), "check");
        if (a[4] > 0)
          count_out_of_tolerance<<<blocks, 256, 0, stream>>>(got, expected, a[4], dtype, atol, rtol, results);
        check(cudaGetLastError(), "check");
        unsigned long long found[2] = {};
        check(cudaMemcpyAsync(found, results, sizeof found, cudaMemcpyDeviceToHost, stream), "check");
        check(cudaStreamSynchronize(stream), "check");
        r.result[0] = found[0];
        r.result[1] = found[1];
        break;
      }
      case Op::kDevGenerate: {
        uint64_t dtype_code = 0;
        const arena::ElementDraw draw = arena::read_element_draw(
            reinterpret_cast<const uint64_t*>(b.at(0, a[3], 8 * arena::kElementDrawWords, "generate")), &dtype_code);
        if (dtype_code > static_cast<uint64_t>(arena::DType::kUint8)) fail("generate: unknown dtype", kExitSetup);
        if (draw.kind > arena::ElementDraw::Kind::kInteger || draw.span == 0) fail("generate: unknown draw", kExitSetup);
        const auto dtype = static_cast<arena::DType>(dtype_code);
        const uint64_t size = arena::dtype_bits::size(dtype);
        if (a[0] == 0) fail("generate: device buffers only", kExitSetup);
        unsigned char* p = b.at(a[0], a[1], a[2] * size, "generate");
        if (reinterpret_cast<uintptr_t>(p) % size != 0) fail("generate: misaligned", kExitSetup);
        if (a[2] > 0) draw_elements<<<blocks, 256, 0, stream>>>(p, a[2], dtype, draw);
        check(cudaGetLastError(), "generate");
        break;
      }
      default:
        fail("unknown request to the device helper", kExitSetup);
    }
    check(cudaStreamSynchronize(stream), "the device helper's work");
    arena::runner::send_reply(r);
  }
}
