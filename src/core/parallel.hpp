// Splitting element-wise work on the judge's side (making inputs, checking outputs) across the
// host's cores: large shapes have hundreds of millions of elements.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

namespace arena {

// Calls fn(chunk, begin, end) for contiguous chunks covering [0, n), in parallel, and returns
// the number of chunks. Chunk i covers lower indices than chunk i + 1, so per-chunk results can
// be merged in order. Small n runs on the calling thread alone.
template <typename Fn>
size_t parallel_chunks(int64_t n, Fn&& fn, int64_t min_chunk = int64_t{1} << 20) {
  int64_t hw = std::max(1u, std::thread::hardware_concurrency());
  int64_t chunks = std::clamp<int64_t>(n / std::max<int64_t>(min_chunk, 1), 1, hw);
  if (chunks == 1) {
    fn(size_t{0}, int64_t{0}, n);
    return 1;
  }
  std::vector<std::thread> threads;
  threads.reserve(static_cast<size_t>(chunks));
  for (int64_t c = 0; c < chunks; ++c) {
    int64_t begin = n * c / chunks;
    int64_t end = n * (c + 1) / chunks;
    threads.emplace_back([&fn, c, begin, end] { fn(static_cast<size_t>(c), begin, end); });
  }
  for (auto& t : threads) t.join();
  return static_cast<size_t>(chunks);
}

// memcpy across the host's cores (large buffers: the judge moves hundreds of MB per timed call).
inline void parallel_copy(void* dst, const void* src, size_t bytes) {
  parallel_chunks(
      static_cast<int64_t>(bytes),
      [&](size_t, int64_t begin, int64_t end) {
        std::memcpy(static_cast<std::byte*>(dst) + begin,
                    static_cast<const std::byte*>(src) + begin, static_cast<size_t>(end - begin));
      },
      int64_t{8} << 20);
}

// memcmp(a, b, bytes) == 0 across the host's cores.
inline bool parallel_equal(const void* a, const void* b, size_t bytes) {
  std::atomic<bool> equal{true};
  parallel_chunks(
      static_cast<int64_t>(bytes),
      [&](size_t, int64_t begin, int64_t end) {
        if (equal.load(std::memory_order_relaxed) &&
            std::memcmp(static_cast<const std::byte*>(a) + begin,
                        static_cast<const std::byte*>(b) + begin,
                        static_cast<size_t>(end - begin)) != 0)
          equal = false;
      },
      int64_t{8} << 20);
  return equal;
}

}  // namespace arena
