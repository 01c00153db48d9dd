// Where does the runner offset of a short kernel's median come from (docs/timing.md, "The runner
// offset")? One process stands for one runner: 4 device regions of 3 x n floats each (a runner's
// buffers), timed exactly as the runner times a call (evicted L2 and a sync, then a held stream,
// start event, kernel, stop event, release), the regions interleaved per repetition, with an
// empty kernel's window beside them. Raw windows to stdout as CSV: proc,n,region,rep,ns,variant
// (region -1: the empty kernel). Variants (STREAMS=S, EVENTS=E; 1 and 1 by default): variant
// v < S times on stream v with event pair v, variant v >= S on stream 0 with event pair v: do
// streams (hardware channels) or event slots of one process differ as processes do? Run it in
// several processes and read the CSV with bench/runner_offset_analysis.py:
//   for p in 0 1 2 3 4 5 6 7 8 9; do build/bench/runner_offset $p; done | gzip > offsets.csv.gz
//   python3 bench/runner_offset_analysis.py offsets.csv.gz
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "backends/cuda/hold_kernel.cuh"
#include "backends/cuda/l2_flush.cuh"

__global__ void probe_empty() {}
__global__ void probe_add(const float* a, const float* b, float* c, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main(int argc, char** argv) {
  int proc = argc > 1 ? atoi(argv[1]) : 0;
  int reps = getenv("REPS") ? atoi(getenv("REPS")) : 300;
  const int K = 4;
  arena::cuda::L2Flush l2; l2.init(0);
  const int S = getenv("STREAMS") ? atoi(getenv("STREAMS")) : 1;
  const int V = S + (getenv("EVENTS") ? atoi(getenv("EVENTS")) : 1) - 1;
  std::vector<cudaStream_t> streams(S);
  for (auto& st : streams) cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking);
  std::vector<cudaEvent_t> starts(V), stops(V);
  for (int v = 0; v < V; ++v) { cudaEventCreate(&starts[v]); cudaEventCreate(&stops[v]); }
  arena::cuda::DeviceHold hold;  // the runner's own
  if (!hold.init(0).empty()) { fprintf(stderr, "runner_offset: cannot set the hold up\n"); return 1; }
  long sizes[] = {262144, 1000003, 4194304};
  for (long n : sizes) {
    std::vector<float*> regions(K);
    for (int k = 0; k < K; ++k) {
      cudaMalloc(&regions[k], 3 * n * sizeof(float) + 4096);
      cudaMemset(regions[k], 0, 3 * n * sizeof(float));
    }
    cudaDeviceSynchronize();
    for (int r = 0; r < reps + 20; ++r) {
      for (int v = 0; v < V; ++v)
      for (int k = -1; k < K; ++k) {
        cudaStream_t s = streams[v < S ? v : 0];
        cudaEvent_t e0 = starts[v], e1 = stops[v];
        l2.flush(s); cudaStreamSynchronize(s);
        if (hold.enqueue(s, 2000000000ull) != cudaSuccess || !hold.wait_resident(1000000000ull)) {
          fprintf(stderr, "runner_offset: the hold never took the device\n");
          return 1;
        }
        cudaEventRecord(e0, s);
        if (k < 0) probe_empty<<<1, 32, 0, s>>>();
        else {
          float* a = regions[k];
          probe_add<<<(n + 255) / 256, 256, 0, s>>>(a, a + n, a + 2 * n, n);
        }
        cudaEventRecord(e1, s);
        hold.release();
        cudaStreamSynchronize(s); cudaDeviceSynchronize();
        float m; cudaEventElapsedTime(&m, e0, e1);
        if (r >= 20) printf("%d,%ld,%d,%d,%.1f,%d\n", proc, n, k, r - 20, (double)m * 1e6, v);
      }
    }
    for (auto p : regions) cudaFree(p);
  }
  fprintf(stderr, "proc %d err %s\n", proc, cudaGetErrorString(cudaGetLastError()));
}
