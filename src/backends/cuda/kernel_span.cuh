// The device's own account of a call: from the start of the first kernel, copy or memset the
// solution ran to the end of the last one, as CUPTI's activity records timestamp them. Unlike the
// event window around the call, it leaves out the launch latency and event overhead (about a
// microsecond), so it is comparable with Nsight Compute's gpu__time_duration for short kernels.
//
// The runner's own kernels (the stream hold, the L2 sweep) are left out by name. Everything here
// is best effort: when CUPTI cannot be set up (another profiler attached, a sanitizer, no
// library), spans are simply unknown (0) and the judge keeps the event time alone.
#pragma once

#include <cupti.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace arena::cuda {

class KernelSpan {
 public:
  // Enables the activity kinds; false (and spans stay unknown) when CUPTI refuses.
  bool init() {
    if (cuptiActivityRegisterCallbacks(&KernelSpan::request, &KernelSpan::complete) != CUPTI_SUCCESS) return false;
    for (CUpti_ActivityKind k :
         {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMSET}) {
      if (cuptiActivityEnable(k) != CUPTI_SUCCESS) {
        cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
        return false;
      }
    }
    enabled_ = true;
    return true;
  }

  // Forgets records of earlier work (the runner's own copies and sweeps before the call).
  void begin() {
    if (!enabled_) return;
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    state().clear();
  }

  // After the call's work is done: its span in ns, 0 when unknown. Only work that started after
  // the stream hold ended counts (the runner's own memset before the hold is not the call's).
  uint64_t end() {
    if (!enabled_) return 0;
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    uint64_t hold_end = 0;
    for (const Interval& i : state())
      if (i.runner && i.stop > hold_end) hold_end = i.stop;
    uint64_t first = UINT64_MAX, last = 0;
    for (const Interval& i : state()) {
      if (i.runner || i.start < hold_end) continue;
      first = i.start < first ? i.start : first;
      last = i.stop > last ? i.stop : last;
    }
    return last > first ? last - first : 0;
  }

 private:
  struct Interval {
    uint64_t start;
    uint64_t stop;
    bool runner;  // the runner's own kernel
  };
  static std::vector<Interval>& state() {
    static std::vector<Interval> s;
    return s;
  }
  static void add(uint64_t start, uint64_t stop, bool runner = false) {
    if (start != 0 || stop != 0) state().push_back({start, stop, runner});
  }
  static bool runner_kernel(const char* name) {
    return name != nullptr && (std::strstr(name, "hold_stream") != nullptr || std::strstr(name, "sweep_read") != nullptr);
  }

  static void CUPTIAPI request(uint8_t** buffer, size_t* size, size_t* max_records) {
    constexpr size_t kBytes = size_t{1} << 20;
    *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBytes));
    *size = *buffer ? kBytes : 0;
    *max_records = 0;
  }
  static void CUPTIAPI complete(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
    CUpti_Activity* record = nullptr;
    while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
      switch (record->kind) {
        case CUPTI_ACTIVITY_KIND_KERNEL:
        case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
          const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
          add(k->start, k->end, runner_kernel(k->name));
          break;
        }
        case CUPTI_ACTIVITY_KIND_MEMCPY: {
          const auto* m = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
          add(m->start, m->end);
          break;
        }
        case CUPTI_ACTIVITY_KIND_MEMSET: {
          const auto* m = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
          add(m->start, m->end);
          break;
        }
        default:
          break;
      }
    }
    std::free(buffer);
  }

  bool enabled_ = false;
};

}  // namespace arena::cuda
