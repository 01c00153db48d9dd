// How much of the judge's event window is not the kernel: times probe kernels exactly as the CUDA
// runner times a call (L2 swept, stream held by the spinning kernel, start event, launch, stop
// event, release) and prints each probe's median window. The hold is the runner's own
// (src/backends/cuda/hold_kernel.cuh, every SM held). bench/timing_quality.py's `window`
// measure runs it again under Nsight Compute and compares the two per probe: the difference is
// the window's fixed part (launch start-up, the events), what separates a short kernel's event
// time from ncu's gpu__time_duration (docs/timing.md, "Accuracy").
//   event_window [--no-hold] [--sweep-first] [--side-copy] [--reps N] [--zeros]
// CSV on stdout: probe,median_ns,p10_ns,p90_ns
// --no-hold: no stream hold (under ncu, which serializes launches). The add probes' inputs are
// drawn uniformly from [-1, 1), as the judge's are; --zeros: all zero instead, as before
// 2026-12-05 (on an H100 both read the same, windows and ncu: docs/timing.md, "Placements").
// The L2 is swept as the runner sweeps it: by the hold, after the release (hold_kernel.cuh);
// --sweep-first sweeps it before the hold instead, as the runner did until 2026-12-06.
// --side-copy adds the probe add_1000003_side_copy: while the device is held it copies both inputs
// to pinned host memory on another stream (a device-to-host copy runs on a copy engine, which the
// hold does not hold; device-to-device copies are held: on an H100 a call that waited for one
// blocked), waits on the host until the copies are done, as a call may, then launches
// (tests/redteam/cuda/head_start_copy_engine.cu). With --sweep-first the copies' reads may leave
// the inputs in the L2 and the window shrink; with the hold's sweep they should not. Not yet run.
// --touch-pages: after the sweep and before the start event, a one-block kernel reads one word of
// every 2 MiB page the add probe's a, b and c span (a handful of L2 lines): the translations
// warm, the data still cold. Is the window's extra over ncu at a few microseconds the TLB misses
// the sweep leaves (ncu's --cache-control all flushes caches, not the TLBs)?
// --cupti: CUPTI's activity records of the probe kernels as well (CONCURRENT_KERNEL: the kernel's
// start and end as the device stamps them, the times Nsight Systems shows); the CSV gains
// cupti_median_ns, the median of the probe's kernel durations, and window_less_cupti_median_ns,
// the median of each window less its own kernel's duration. Not under ncu (one CUPTI user).
#include <cuda_runtime.h>
#include <cupti.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "backends/cuda/hold_kernel.cuh"
#include "backends/cuda/l2_flush.cuh"

// At global scope, so that ncu's kernel filter (regex:probe_) sees their plain names.
__global__ void probe_empty() {}

// One element per thread, as the vector_add starter.
__global__ void probe_add(const float* a, const float* b, float* c, long n) {
  const long i = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

// Element i of a uniform draw in [-1, 1) (a hash of i and the seed).
__global__ void fill_uniform(float* p, long n, unsigned seed) {
  const long i = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  unsigned x = static_cast<unsigned>(i) * 2654435761u ^ seed;
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  p[i] = static_cast<float>(x >> 8) * (2.0f / 16777216.0f) - 1.0f;
}

// One word of every 2 MiB page of [p, p + bytes), read by one block.
__global__ void touch_pages(const float* p, long bytes, unsigned* sink) {
  unsigned acc = 0;
  for (long off = threadIdx.x * (2L << 20); off < bytes; off += blockDim.x * (2L << 20))
    acc ^= __float_as_uint(p[off / sizeof(float)]);
  if (acc == 0x9E3779B9u) *sink = acc;  // never true: keeps the loads
}

namespace {

struct Probe {
  const char* name;
  int blocks;  // empty probes: the grid; add probes: 0 (one thread per element)
  long n;      // add probes: elements
  bool side_copy = false;  // the inputs copied on another stream while the device is held
};

// The probe kernels' durations from CUPTI's activity records, in the order the device ran them.
std::vector<double> g_cupti_ns;

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *size = 1 << 20;
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, *size));
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    if (record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) continue;
    const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
    if (k->name != nullptr && std::strstr(k->name, "probe_") != nullptr)
      g_cupti_ns.push_back(static_cast<double>(k->end - k->start));
  }
  std::free(buffer);
}

void check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  std::fprintf(stderr, "event_window: %s: %s\n", what, cudaGetErrorString(e));
  std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  bool hold = true;
  bool zeros = false;
  bool sweep_first = false;
  bool side_copy = false;
  bool touch = false;
  bool cupti = false;
  int reps = 200;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--no-hold") == 0) {
      hold = false;
    } else if (std::strcmp(argv[i], "--zeros") == 0) {
      zeros = true;
    } else if (std::strcmp(argv[i], "--sweep-first") == 0) {
      sweep_first = true;
    } else if (std::strcmp(argv[i], "--side-copy") == 0) {
      side_copy = true;
    } else if (std::strcmp(argv[i], "--touch-pages") == 0) {
      touch = true;
    } else if (std::strcmp(argv[i], "--cupti") == 0) {
      cupti = true;
    } else if (std::strcmp(argv[i], "--reps") == 0 && i + 1 < argc) {
      reps = std::max(1, std::atoi(argv[++i]));
    } else {
      std::fprintf(stderr, "usage: %s [--no-hold] [--sweep-first] [--side-copy] [--touch-pages] [--cupti] [--reps N] [--zeros]\n", argv[0]);
      return 2;
    }
  }
  std::vector<Probe> probes = {{"window_only", -1, 0},         {"empty_1_block", 1, 0},
                                     {"empty_4096_blocks", 4096, 0}, {"add_262144", 0, 262144},
                                     {"add_1000003", 0, 1000003},    {"add_4194304", 0, 4194304},
                                     {"add_9999991", 0, 9999991},    {"add_67108864", 0, 67108864}};
  constexpr long kSideCopyN = 1000003;
  if (side_copy) probes.push_back({"add_1000003_side_copy", 0, kSideCopyN, true});
  if (cupti) {
    if (cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed) != CUPTI_SUCCESS ||
        cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) != CUPTI_SUCCESS) {
      std::fprintf(stderr, "event_window: CUPTI's kernel activity could not be enabled\n");
      return 1;
    }
  }
  arena::cuda::L2Flush l2;
  if (!l2.init(0)) check(cudaErrorMemoryAllocation, "the L2 flush buffer");
  cudaStream_t stream, side;
  check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "stream");
  check(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking), "stream");
  cudaEvent_t copied;
  check(cudaEventCreateWithFlags(&copied, cudaEventDisableTiming), "event");
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "event");
  check(cudaEventCreate(&stop), "event");
  arena::cuda::DeviceHold device_hold;
  if (!device_hold.init(0).empty()) check(cudaErrorUnknown, "the hold");
  const long most = 67108864;
  float *a, *b, *c, *staging = nullptr;
  unsigned* sink = nullptr;
  check(cudaMalloc(&sink, sizeof(unsigned)), "sink");
  if (side_copy) check(cudaMallocHost(&staging, 2 * kSideCopyN * sizeof(float)), "pinned staging");
  check(cudaMalloc(&a, most * sizeof(float)), "a");
  check(cudaMalloc(&b, most * sizeof(float)), "b");
  check(cudaMalloc(&c, most * sizeof(float)), "c");
  check(cudaMemset(a, 0, most * sizeof(float)), "a");
  check(cudaMemset(b, 0, most * sizeof(float)), "b");
  if (!zeros) {
    fill_uniform<<<static_cast<unsigned>((most + 255) / 256), 256>>>(a, most, 1u);
    fill_uniform<<<static_cast<unsigned>((most + 255) / 256), 256>>>(b, most, 2u);
    check(cudaDeviceSynchronize(), "drawing the inputs");
  }
  std::printf(cupti ? "probe,median_ns,p10_ns,p90_ns,cupti_median_ns,window_less_cupti_median_ns\n" : "probe,median_ns,p10_ns,p90_ns\n");
  for (const Probe& p : probes) {
    std::vector<double> ns, less_cupti;  // less_cupti: each window less its kernel's CUPTI duration
    if (cupti) {
      cuptiActivityFlushAll(0);
      g_cupti_ns.clear();
    }
    for (int r = 0; r < reps; ++r) {
      // As the runner: the persisting state undone, the sweep in the hold after the release.
      const bool hold_sweeps = hold && !sweep_first;
      if (hold_sweeps) {
        l2.undo(stream);
      } else {
        l2.flush(stream);
        check(cudaStreamSynchronize(stream), "the L2 sweep");
      }
      if (hold) {
        const arena::cuda::HoldSweep sweep =
            hold_sweeps ? arena::cuda::HoldSweep{l2.words(), l2.word_count()} : arena::cuda::HoldSweep{};
        check(device_hold.enqueue(stream, 2'000'000'000ull, sweep), "the hold");
        if (!device_hold.wait_resident(1'000'000'000ull)) check(cudaErrorUnknown, "the hold never took the device");
      }
      if (touch && p.blocks == 0) {
        const long bytes = p.n * static_cast<long>(sizeof(float));
        for (const float* t : {static_cast<const float*>(a), static_cast<const float*>(b), static_cast<const float*>(c)})
          touch_pages<<<1, 128, 0, stream>>>(t, bytes, sink);
      }
      cudaEventRecord(start, stream);
      if (p.side_copy) {
        // Both inputs read by a copy engine into pinned host memory; the host waits for them
        // (at most 1 s: a copy that does not run while the device is held would wait for ever).
        const size_t bytes = static_cast<size_t>(p.n) * sizeof(float);
        check(cudaMemcpyAsync(staging, a, bytes, cudaMemcpyDeviceToHost, side), "the side copy");
        check(cudaMemcpyAsync(staging + p.n, b, bytes, cudaMemcpyDeviceToHost, side), "the side copy");
        cudaEventRecord(copied, side);
        const auto since = std::chrono::steady_clock::now();
        while (cudaEventQuery(copied) == cudaErrorNotReady) {
          if (std::chrono::steady_clock::now() - since > std::chrono::seconds(1)) {
            std::fprintf(stderr, "event_window: the side copies did not run while the device was held\n");
            return 1;
          }
        }
      }
      if (p.blocks > 0) probe_empty<<<p.blocks, 128, 0, stream>>>();
      if (p.blocks == 0)
        probe_add<<<static_cast<unsigned>((p.n + 255) / 256), 256, 0, stream>>>(a, b, c, p.n);
      cudaEventRecord(stop, stream);
      if (hold) device_hold.release();
      check(cudaStreamSynchronize(stream), "a probe");
      float ms = 0;
      check(cudaEventElapsedTime(&ms, start, stop), "the events");
      ns.push_back(static_cast<double>(ms) * 1e6);
      if (cupti && p.blocks >= 0) {
        const size_t had = g_cupti_ns.size();
        cuptiActivityFlushAll(0);
        if (g_cupti_ns.size() == had + 1) less_cupti.push_back(ns.back() - g_cupti_ns.back());
      }
    }
    std::sort(ns.begin(), ns.end());
    std::printf("%s,%.0f,%.0f,%.0f", p.name, ns[ns.size() / 2], ns[ns.size() / 10],
                ns[ns.size() * 9 / 10]);
    if (cupti) {
      cuptiActivityFlushAll(0);
      std::sort(g_cupti_ns.begin(), g_cupti_ns.end());
      std::sort(less_cupti.begin(), less_cupti.end());
      std::printf(",%.0f,%.0f", g_cupti_ns.empty() ? 0.0 : g_cupti_ns[g_cupti_ns.size() / 2],
                  less_cupti.empty() ? 0.0 : less_cupti[less_cupti.size() / 2]);
    }
    std::printf("\n");
  }
  return 0;
}
