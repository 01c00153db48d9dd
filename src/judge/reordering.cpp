#include "judge/reordering.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>

#include "judge/random.hpp"

namespace arena {
namespace {

constexpr int64_t kMaxChunks = 256;

AxisOrder cyclic_order(int64_t extent, uint64_t key) {
  const int64_t chunks = std::min(extent, kMaxChunks);
  std::vector<int64_t> next(static_cast<size_t>(chunks));
  std::iota(next.begin(), next.end(), 0);
  // Sattolo's algorithm: a uniformly random single cycle, so no chunk maps to itself.
  for (int64_t i = chunks - 1; i > 0; --i)
    std::swap(next[static_cast<size_t>(i)],
              next[static_cast<size_t>(random_bits(key, static_cast<uint64_t>(i)) %
                                       static_cast<uint64_t>(i))]);
  AxisOrder o;
  auto start = [&](int64_t c) {
    return static_cast<int64_t>(static_cast<__int128>(c) * extent / chunks);
  };
  for (int64_t c = 0; c < chunks; ++c) {
    const int64_t from = next[static_cast<size_t>(c)];
    o.segments.push_back({start(from), start(from + 1) - start(from)});
  }
  return o;
}

// The axis order undone: destination segments become the sources.
AxisOrder inverted(const AxisOrder& o) {
  std::vector<std::pair<int64_t, int64_t>>
      pieces;  // (source start, destination start), per segment
  int64_t at = 0;
  for (const auto& s : o.segments) {
    pieces.emplace_back(s.source, at);
    at += s.length;
  }
  std::vector<size_t> idx(pieces.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::sort(idx.begin(), idx.end(),
            [&](size_t a, size_t b) { return pieces[a].first < pieces[b].first; });
  AxisOrder inv;
  for (size_t i : idx) inv.segments.push_back({pieces[i].second, o.segments[i].length});
  return inv;
}

struct Copier {
  std::vector<int64_t> dims;
  std::vector<int64_t> stride;          // bytes per step of each axis
  std::vector<const AxisOrder*> order;  // null: the axis keeps its order
  std::vector<bool> rest_in_order;      // this axis and every later one keep their order

  void copy(size_t a, const std::byte* src, std::byte* dst) const {
    if (a == dims.size() || rest_in_order[a]) {
      std::memcpy(dst, src,
                  static_cast<size_t>(a == dims.size() ? stride.back() : dims[a] * stride[a]));
      return;
    }
    const bool tail_in_order = a + 1 == dims.size() || rest_in_order[a + 1];
    if (!order[a]) {
      for (int64_t i = 0; i < dims[a]; ++i) copy(a + 1, src + i * stride[a], dst + i * stride[a]);
      return;
    }
    int64_t d = 0;
    for (const auto& s : order[a]->segments) {
      if (tail_in_order) {
        std::memcpy(dst + d * stride[a], src + s.source * stride[a],
                    static_cast<size_t>(s.length * stride[a]));
      } else {
        for (int64_t j = 0; j < s.length; ++j)
          copy(a + 1, src + (s.source + j) * stride[a], dst + (d + j) * stride[a]);
      }
      d += s.length;
    }
  }
};

}  // namespace

Reordering draw_reordering(const Task& task, const Shape& shape, uint64_t key) {
  Reordering r;
  for (size_t k = 0; k < task.equivariant.size(); ++k) {
    const std::string& p = task.equivariant[k];
    const int64_t extent = shape.params.at(p);
    if (extent > 1) r.axes[p] = cyclic_order(extent, stream_key(key, k));
  }
  return r;
}

void reorder_tensor(const Task& task, const Shape& shape, const Reordering& r, size_t index,
                    const std::byte* src, std::byte* dst, bool inverse) {
  const TensorSpec& t = task.tensors.at(index);
  Copier c;
  c.dims = task.dims(t, shape);
  const size_t n = c.dims.size();
  std::vector<AxisOrder> inverses;
  inverses.reserve(n);
  c.stride.assign(n, static_cast<int64_t>(dtype_size(t.dtype)));
  for (size_t a = n; a-- > 1;) c.stride[a - 1] = c.stride[a] * c.dims[a];
  c.order.assign(n, nullptr);
  for (size_t a = 0; a < n; ++a) {
    auto it = r.axes.find(t.shape[a].text());
    if (it == r.axes.end()) continue;
    if (inverse) {
      inverses.push_back(inverted(it->second));
      c.order[a] = &inverses.back();
    } else {
      c.order[a] = &it->second;
    }
  }
  c.rest_in_order.assign(n, true);
  for (size_t a = n; a-- > 0;)
    c.rest_in_order[a] = !c.order[a] && (a + 1 == n || c.rest_in_order[a + 1]);
  if (n == 0) {
    std::memcpy(dst, src, dtype_size(t.dtype));
    return;
  }
  c.copy(0, src, dst);
}

std::vector<HostBuffer> reorder_inputs(const Task& task, const Shape& shape, const Reordering& r,
                                       const std::vector<HostBuffer>& inputs) {
  std::vector<HostBuffer> out;
  size_t k = 0;
  for (size_t i = 0; i < task.tensors.size(); ++i) {
    if (task.tensors[i].role != Role::kInput) continue;
    const HostBuffer& in = inputs.at(k++);
    out.emplace_back(in.size());
    reorder_tensor(task, shape, r, i, in.data(), out.back().data());
  }
  return out;
}

}  // namespace arena
