// The entry points StreamWatch (stream_watch.hpp) watches, as X-macro lists of CUPTI callback ids
// (CUDA 13's cupti_runtime_cbid.h and cupti_driver_cbid.h). Copies and memsets: every id whose
// function name begins cudaMemcpy, cudaMemset, cuMemcpy or cuMemset; the *_ON_A_STREAM lists are
// those whose parameters (generated_cuda_runtime_api_meta.h, generated_cuda_meta.h) name the
// stream (`stream`, `hStream`), the others run on the legacy default stream or take no stream.
// Launches: those whose parameters name the stream, and those that do not (deprecated forms).
// (The *_v12080 batch copies do name a stream but have no parameter struct in CUDA 13's headers:
// they are among the others, always counted.) Event and stream destruction (a new handle may
// come at the same address) and the start of a stream capture (counted: a timed call must not
// capture) complete the set.
// Other work a stream runs (prefetches and discards of managed memory, stream memory operations,
// external semaphores, host callbacks, graph uploads, batch decompression, array mapping) is
// counted wherever it is enqueued (*_STREAM_OPS). Creations forget the new handle's address (a
// destroy the watch did not see may have freed it); contexts of the solution's own (and resets)
// are counted at any time: the hold holds the runner's context only.
// Made with grep over those headers; a newer CUDA's new entry points must be added here
// (tests/unit/stream_effect_test.cpp checks every listed id against CUPTI's names).
#pragma once

#define ARENA_RUNTIME_COPIES_ON_A_STREAM(X) \
  X(cudaMemcpy2DAsync_ptsz_v7000) \
  X(cudaMemcpy2DAsync_v3020) \
  X(cudaMemcpy2DFromArrayAsync_ptsz_v7000) \
  X(cudaMemcpy2DFromArrayAsync_v3020) \
  X(cudaMemcpy2DToArrayAsync_ptsz_v7000) \
  X(cudaMemcpy2DToArrayAsync_v3020) \
  X(cudaMemcpy3DAsync_ptsz_v7000) \
  X(cudaMemcpy3DAsync_v3020) \
  X(cudaMemcpy3DBatchAsync_ptsz_v13000) \
  X(cudaMemcpy3DBatchAsync_v13000) \
  X(cudaMemcpy3DPeerAsync_ptsz_v7000) \
  X(cudaMemcpy3DPeerAsync_v4000) \
  X(cudaMemcpyAsync_ptsz_v7000) \
  X(cudaMemcpyAsync_v3020) \
  X(cudaMemcpyBatchAsync_ptsz_v13000) \
  X(cudaMemcpyBatchAsync_v13000) \
  X(cudaMemcpyFromArrayAsync_ptsz_v7000) \
  X(cudaMemcpyFromArrayAsync_v3020) \
  X(cudaMemcpyFromSymbolAsync_ptsz_v7000) \
  X(cudaMemcpyFromSymbolAsync_v3020) \
  X(cudaMemcpyPeerAsync_v4000) \
  X(cudaMemcpyToArrayAsync_ptsz_v7000) \
  X(cudaMemcpyToArrayAsync_v3020) \
  X(cudaMemcpyToSymbolAsync_ptsz_v7000) \
  X(cudaMemcpyToSymbolAsync_v3020) \
  X(cudaMemset2DAsync_ptsz_v7000) \
  X(cudaMemset2DAsync_v3020) \
  X(cudaMemset3DAsync_ptsz_v7000) \
  X(cudaMemset3DAsync_v3020) \
  X(cudaMemsetAsync_ptsz_v7000) \
  X(cudaMemsetAsync_v3020)

#define ARENA_RUNTIME_COPIES_OTHER(X) \
  X(cudaMemcpy2DArrayToArray_ptds_v7000) \
  X(cudaMemcpy2DArrayToArray_v3020) \
  X(cudaMemcpy2DFromArray_ptds_v7000) \
  X(cudaMemcpy2DFromArray_v3020) \
  X(cudaMemcpy2DToArray_ptds_v7000) \
  X(cudaMemcpy2DToArray_v3020) \
  X(cudaMemcpy2D_ptds_v7000) \
  X(cudaMemcpy2D_v3020) \
  X(cudaMemcpy3DBatchAsync_ptsz_v12080) \
  X(cudaMemcpy3DBatchAsync_v12080) \
  X(cudaMemcpy3DPeer_ptds_v7000) \
  X(cudaMemcpy3DPeer_v4000) \
  X(cudaMemcpy3D_ptds_v7000) \
  X(cudaMemcpy3D_v3020) \
  X(cudaMemcpyArrayToArray_ptds_v7000) \
  X(cudaMemcpyArrayToArray_v3020) \
  X(cudaMemcpyBatchAsync_ptsz_v12080) \
  X(cudaMemcpyBatchAsync_v12080) \
  X(cudaMemcpyFromArray_ptds_v7000) \
  X(cudaMemcpyFromArray_v3020) \
  X(cudaMemcpyFromSymbol_ptds_v7000) \
  X(cudaMemcpyFromSymbol_v3020) \
  X(cudaMemcpyPeer_v4000) \
  X(cudaMemcpyToArray_ptds_v7000) \
  X(cudaMemcpyToArray_v3020) \
  X(cudaMemcpyToSymbol_ptds_v7000) \
  X(cudaMemcpyToSymbol_v3020) \
  X(cudaMemcpy_ptds_v7000) \
  X(cudaMemcpy_v3020) \
  X(cudaMemset2D_ptds_v7000) \
  X(cudaMemset2D_v3020) \
  X(cudaMemset3D_ptds_v7000) \
  X(cudaMemset3D_v3020) \
  X(cudaMemset_ptds_v7000) \
  X(cudaMemset_v3020)

#define ARENA_DRIVER_COPIES_ON_A_STREAM(X) \
  X(cuMemcpy2DAsync) \
  X(cuMemcpy2DAsync_v2) \
  X(cuMemcpy2DAsync_v2_ptsz) \
  X(cuMemcpy3DAsync) \
  X(cuMemcpy3DAsync_v2) \
  X(cuMemcpy3DAsync_v2_ptsz) \
  X(cuMemcpy3DBatchAsync) \
  X(cuMemcpy3DBatchAsync_ptsz) \
  X(cuMemcpy3DBatchAsync_v2) \
  X(cuMemcpy3DBatchAsync_v2_ptsz) \
  X(cuMemcpy3DPeerAsync) \
  X(cuMemcpy3DPeerAsync_ptsz) \
  X(cuMemcpyAsync) \
  X(cuMemcpyAsync_ptsz) \
  X(cuMemcpyAtoHAsync) \
  X(cuMemcpyAtoHAsync_v2) \
  X(cuMemcpyAtoHAsync_v2_ptsz) \
  X(cuMemcpyBatchAsync) \
  X(cuMemcpyBatchAsync_ptsz) \
  X(cuMemcpyBatchAsync_v2) \
  X(cuMemcpyBatchAsync_v2_ptsz) \
  X(cuMemcpyDtoDAsync) \
  X(cuMemcpyDtoDAsync_v2) \
  X(cuMemcpyDtoDAsync_v2_ptsz) \
  X(cuMemcpyDtoHAsync) \
  X(cuMemcpyDtoHAsync_v2) \
  X(cuMemcpyDtoHAsync_v2_ptsz) \
  X(cuMemcpyHtoAAsync) \
  X(cuMemcpyHtoAAsync_v2) \
  X(cuMemcpyHtoAAsync_v2_ptsz) \
  X(cuMemcpyHtoDAsync) \
  X(cuMemcpyHtoDAsync_v2) \
  X(cuMemcpyHtoDAsync_v2_ptsz) \
  X(cuMemcpyPeerAsync) \
  X(cuMemcpyPeerAsync_ptsz) \
  X(cuMemsetD16Async) \
  X(cuMemsetD16Async_ptsz) \
  X(cuMemsetD2D16Async) \
  X(cuMemsetD2D16Async_ptsz) \
  X(cuMemsetD2D32Async) \
  X(cuMemsetD2D32Async_ptsz) \
  X(cuMemsetD2D8Async) \
  X(cuMemsetD2D8Async_ptsz) \
  X(cuMemsetD32Async) \
  X(cuMemsetD32Async_ptsz) \
  X(cuMemsetD8Async) \
  X(cuMemsetD8Async_ptsz)

#define ARENA_DRIVER_COPIES_OTHER(X) \
  X(cu64Memcpy2D) \
  X(cu64Memcpy2DAsync) \
  X(cu64Memcpy2DUnaligned) \
  X(cu64Memcpy3D) \
  X(cu64Memcpy3DAsync) \
  X(cu64MemcpyAtoD) \
  X(cu64MemcpyDtoA) \
  X(cu64MemcpyDtoD) \
  X(cu64MemcpyDtoDAsync) \
  X(cu64MemcpyDtoH) \
  X(cu64MemcpyDtoHAsync) \
  X(cu64MemcpyHtoD) \
  X(cu64MemcpyHtoDAsync) \
  X(cu64MemsetD16) \
  X(cu64MemsetD16Async) \
  X(cu64MemsetD2D16) \
  X(cu64MemsetD2D16Async) \
  X(cu64MemsetD2D32) \
  X(cu64MemsetD2D32Async) \
  X(cu64MemsetD2D8) \
  X(cu64MemsetD2D8Async) \
  X(cu64MemsetD32) \
  X(cu64MemsetD32Async) \
  X(cu64MemsetD8) \
  X(cu64MemsetD8Async) \
  X(cuMemcpy) \
  X(cuMemcpy2D) \
  X(cuMemcpy2DUnaligned) \
  X(cuMemcpy2DUnaligned_v2) \
  X(cuMemcpy2DUnaligned_v2_ptds) \
  X(cuMemcpy2D_v2) \
  X(cuMemcpy2D_v2_ptds) \
  X(cuMemcpy3D) \
  X(cuMemcpy3DPeer) \
  X(cuMemcpy3DPeer_ptds) \
  X(cuMemcpy3D_v2) \
  X(cuMemcpy3D_v2_ptds) \
  X(cuMemcpyAtoA) \
  X(cuMemcpyAtoA_v2) \
  X(cuMemcpyAtoA_v2_ptds) \
  X(cuMemcpyAtoD) \
  X(cuMemcpyAtoD_v2) \
  X(cuMemcpyAtoD_v2_ptds) \
  X(cuMemcpyAtoH) \
  X(cuMemcpyAtoH_v2) \
  X(cuMemcpyAtoH_v2_ptds) \
  X(cuMemcpyDtoA) \
  X(cuMemcpyDtoA_v2) \
  X(cuMemcpyDtoA_v2_ptds) \
  X(cuMemcpyDtoD) \
  X(cuMemcpyDtoD_v2) \
  X(cuMemcpyDtoD_v2_ptds) \
  X(cuMemcpyDtoH) \
  X(cuMemcpyDtoH_v2) \
  X(cuMemcpyDtoH_v2_ptds) \
  X(cuMemcpyHtoA) \
  X(cuMemcpyHtoA_v2) \
  X(cuMemcpyHtoA_v2_ptds) \
  X(cuMemcpyHtoD) \
  X(cuMemcpyHtoD_v2) \
  X(cuMemcpyHtoD_v2_ptds) \
  X(cuMemcpyPeer) \
  X(cuMemcpyPeer_ptds) \
  X(cuMemcpy_ptds) \
  X(cuMemcpy_v2) \
  X(cuMemsetD16) \
  X(cuMemsetD16_v2) \
  X(cuMemsetD16_v2_ptds) \
  X(cuMemsetD2D16) \
  X(cuMemsetD2D16_v2) \
  X(cuMemsetD2D16_v2_ptds) \
  X(cuMemsetD2D32) \
  X(cuMemsetD2D32_v2) \
  X(cuMemsetD2D32_v2_ptds) \
  X(cuMemsetD2D8) \
  X(cuMemsetD2D8_v2) \
  X(cuMemsetD2D8_v2_ptds) \
  X(cuMemsetD32) \
  X(cuMemsetD32_v2) \
  X(cuMemsetD32_v2_ptds) \
  X(cuMemsetD8) \
  X(cuMemsetD8_v2) \
  X(cuMemsetD8_v2_ptds)

#define ARENA_RUNTIME_LAUNCHES_ON_A_STREAM(X) \
  X(cudaLaunchKernel_v7000) \
  X(cudaLaunchKernel_ptsz_v7000) \
  X(cudaLaunchCooperativeKernel_v9000) \
  X(cudaLaunchCooperativeKernel_ptsz_v9000) \
  X(cudaLaunchHostFunc_v10000) \
  X(cudaLaunchHostFunc_ptsz_v10000) \
  X(cudaGraphLaunch_v10000) \
  X(cudaGraphLaunch_ptsz_v10000)

#define ARENA_RUNTIME_LAUNCHES_WITH_A_CONFIG(X) \
  X(cudaLaunchKernelExC_v11060) \
  X(cudaLaunchKernelExC_ptsz_v11060)

#define ARENA_RUNTIME_LAUNCHES_OTHER(X) \
  X(cudaLaunch_v3020) \
  X(cudaLaunch_ptsz_v7000) \
  X(cudaLaunchCooperativeKernelMultiDevice_v9000)

#define ARENA_RUNTIME_EVENT_RECORDS(X) \
  X(cudaEventRecord_v3020) \
  X(cudaEventRecord_ptsz_v7000) \
  X(cudaEventRecordWithFlags_v11010) \
  X(cudaEventRecordWithFlags_ptsz_v11010)

#define ARENA_RUNTIME_STREAM_WAITS(X) \
  X(cudaStreamWaitEvent_v3020) \
  X(cudaStreamWaitEvent_ptsz_v7000)

#define ARENA_DRIVER_LAUNCHES_ON_A_STREAM(X) \
  X(cuLaunchKernel) \
  X(cuLaunchKernel_ptsz) \
  X(cuLaunchCooperativeKernel) \
  X(cuLaunchCooperativeKernel_ptsz) \
  X(cuLaunchHostFunc) \
  X(cuLaunchHostFunc_ptsz) \
  X(cuGraphLaunch) \
  X(cuGraphLaunch_ptsz)

#define ARENA_DRIVER_LAUNCHES_WITH_A_CONFIG(X) \
  X(cuLaunchKernelEx) \
  X(cuLaunchKernelEx_ptsz)

#define ARENA_DRIVER_LAUNCHES_OTHER(X) \
  X(cuLaunch) \
  X(cuLaunchGrid) \
  X(cuLaunchGridAsync) \
  X(cuLaunchCooperativeKernelMultiDevice)

#define ARENA_DRIVER_EVENT_RECORDS(X) \
  X(cuEventRecord) \
  X(cuEventRecord_ptsz) \
  X(cuEventRecordWithFlags) \
  X(cuEventRecordWithFlags_ptsz)

#define ARENA_DRIVER_STREAM_WAITS(X) \
  X(cuStreamWaitEvent) \
  X(cuStreamWaitEvent_ptsz)

#define ARENA_RUNTIME_EVENT_DESTROYS(X) X(cudaEventDestroy_v3020)
#define ARENA_RUNTIME_STREAM_DESTROYS(X) X(cudaStreamDestroy_v5050)
// (cudaStreamDestroy_v3020, with no parameter struct in CUDA 13, is not watched: creations forget.)
#define ARENA_RUNTIME_CAPTURES(X) \
  X(cudaStreamBeginCapture_v10000) \
  X(cudaStreamBeginCapture_ptsz_v10000) \
  X(cudaStreamBeginCaptureToGraph_v12030) \
  X(cudaStreamBeginCaptureToGraph_ptsz_v12030)

#define ARENA_DRIVER_EVENT_DESTROYS(X) \
  X(cuEventDestroy) \
  X(cuEventDestroy_v2)
#define ARENA_DRIVER_STREAM_DESTROYS(X) \
  X(cuStreamDestroy) \
  X(cuStreamDestroy_v2)
#define ARENA_DRIVER_CAPTURES(X) \
  X(cuStreamBeginCapture) \
  X(cuStreamBeginCapture_ptsz) \
  X(cuStreamBeginCapture_v2) \
  X(cuStreamBeginCapture_v2_ptsz) \
  X(cuStreamBeginCaptureToGraph) \
  X(cuStreamBeginCaptureToGraph_ptsz)

#define ARENA_RUNTIME_STREAM_OPS(X) \
  X(cudaStreamAddCallback_v5000) \
  X(cudaStreamAddCallback_ptsz_v7000) \
  X(cudaMemPrefetchAsync_v8000) \
  X(cudaMemPrefetchAsync_ptsz_v8000) \
  X(cudaMemPrefetchAsync_v12020) \
  X(cudaMemPrefetchAsync_ptsz_v12020) \
  X(cudaMemPrefetchBatchAsync_v13000) \
  X(cudaMemPrefetchBatchAsync_ptsz_v13000) \
  X(cudaMemDiscardBatchAsync_v13000) \
  X(cudaMemDiscardBatchAsync_ptsz_v13000) \
  X(cudaMemDiscardAndPrefetchBatchAsync_v13000) \
  X(cudaMemDiscardAndPrefetchBatchAsync_ptsz_v13000) \
  X(cudaSignalExternalSemaphoresAsync_v10000) \
  X(cudaSignalExternalSemaphoresAsync_ptsz_v10000) \
  X(cudaSignalExternalSemaphoresAsync_v11020) \
  X(cudaSignalExternalSemaphoresAsync_ptsz_v11020) \
  X(cudaWaitExternalSemaphoresAsync_v10000) \
  X(cudaWaitExternalSemaphoresAsync_ptsz_v10000) \
  X(cudaWaitExternalSemaphoresAsync_v11020) \
  X(cudaWaitExternalSemaphoresAsync_ptsz_v11020) \
  X(cudaGraphUpload_v10000) \
  X(cudaGraphUpload_ptsz_v10000)

#define ARENA_DRIVER_STREAM_OPS(X) \
  X(cuStreamAddCallback) \
  X(cuStreamAddCallback_ptsz) \
  X(cuStreamWaitValue32) \
  X(cuStreamWaitValue32_ptsz) \
  X(cuStreamWaitValue32_v2) \
  X(cuStreamWaitValue32_v2_ptsz) \
  X(cuStreamWaitValue64) \
  X(cuStreamWaitValue64_ptsz) \
  X(cuStreamWaitValue64_v2) \
  X(cuStreamWaitValue64_v2_ptsz) \
  X(cuStreamWriteValue32) \
  X(cuStreamWriteValue32_ptsz) \
  X(cuStreamWriteValue32_v2) \
  X(cuStreamWriteValue32_v2_ptsz) \
  X(cuStreamWriteValue64) \
  X(cuStreamWriteValue64_ptsz) \
  X(cuStreamWriteValue64_v2) \
  X(cuStreamWriteValue64_v2_ptsz) \
  X(cuStreamBatchMemOp) \
  X(cuStreamBatchMemOp_ptsz) \
  X(cuStreamBatchMemOp_v2) \
  X(cuStreamBatchMemOp_v2_ptsz) \
  X(cuMemPrefetchAsync) \
  X(cuMemPrefetchAsync_ptsz) \
  X(cuMemPrefetchAsync_v2) \
  X(cuMemPrefetchAsync_v2_ptsz) \
  X(cuMemPrefetchBatchAsync) \
  X(cuMemPrefetchBatchAsync_ptsz) \
  X(cuMemDiscardBatchAsync) \
  X(cuMemDiscardBatchAsync_ptsz) \
  X(cuMemDiscardAndPrefetchBatchAsync) \
  X(cuMemDiscardAndPrefetchBatchAsync_ptsz) \
  X(cuMemBatchDecompressAsync) \
  X(cuMemBatchDecompressAsync_ptsz) \
  X(cuSignalExternalSemaphoresAsync) \
  X(cuSignalExternalSemaphoresAsync_ptsz) \
  X(cuWaitExternalSemaphoresAsync) \
  X(cuWaitExternalSemaphoresAsync_ptsz) \
  X(cuGraphUpload) \
  X(cuGraphUpload_ptsz) \
  X(cuMemMapArrayAsync) \
  X(cuMemMapArrayAsync_ptsz)

// Creations whose parameters name where the new handle is written.
#define ARENA_RUNTIME_STREAM_CREATES(X) \
  X(cudaStreamCreate_v3020, pStream) \
  X(cudaStreamCreateWithFlags_v5000, pStream) \
  X(cudaStreamCreateWithPriority_v5050, pStream)
#define ARENA_RUNTIME_EVENT_CREATES(X) \
  X(cudaEventCreate_v3020, event) \
  X(cudaEventCreateWithFlags_v3020, event) \
  X(cudaIpcOpenEventHandle_v4010, event)
#define ARENA_DRIVER_STREAM_CREATES(X) \
  X(cuStreamCreate, phStream) \
  X(cuStreamCreateWithPriority, phStream) \
  X(cuGreenCtxStreamCreate, phStream)
#define ARENA_DRIVER_EVENT_CREATES(X) \
  X(cuEventCreate, phEvent) \
  X(cuIpcOpenEventHandle, phEvent)

// Contexts other than the runner's (the hold does not hold them; a device-wide sync does not wait
// for them) and resets of the runner's.
#define ARENA_RUNTIME_CONTEXTS(X) \
  X(cudaDeviceReset_v3020) \
  X(cudaThreadExit_v3020)
#define ARENA_DRIVER_CONTEXTS(X) \
  X(cuCtxCreate) \
  X(cuCtxCreate_v2) \
  X(cuCtxCreate_v3) \
  X(cuCtxCreate_v4) \
  X(cuGreenCtxCreate) \
  X(cuCtxFromGreenCtx) \
  X(cuDevicePrimaryCtxReset) \
  X(cuDevicePrimaryCtxReset_v2) \
  X(cuD3D9CtxCreate) \
  X(cuD3D9CtxCreate_v2) \
  X(cuD3D9CtxCreateOnDevice) \
  X(cuD3D10CtxCreate) \
  X(cuD3D10CtxCreate_v2) \
  X(cuD3D10CtxCreateOnDevice) \
  X(cuD3D11CtxCreate) \
  X(cuD3D11CtxCreate_v2) \
  X(cuD3D11CtxCreateOnDevice) \
  X(cuGLCtxCreate) \
  X(cuGLCtxCreate_v2) \
  X(cuVDPAUCtxCreate) \
  X(cuVDPAUCtxCreate_v2)
