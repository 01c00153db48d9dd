#include "judge/reordering.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <stdexcept>

#include "core/parallel.hpp"
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
      parallel_copy(dst, src,
                    static_cast<size_t>(a == dims.size() ? stride.back() : dims[a] * stride[a]));
      return;
    }
    const bool tail_in_order = a + 1 == dims.size() || rest_in_order[a + 1];
    if (!order[a]) {
      for (int64_t i = 0; i < dims[a]; ++i) copy(a + 1, src + i * stride[a], dst + i * stride[a]);
      return;
    }
    int64_t d = 0;
    if (tail_in_order && a == 0 && dims[a] * stride[a] >= (int64_t{16} << 20)) {
      // A large tensor reordered along its outer axis: its segments, across the host's cores.
      const auto& segs = order[a]->segments;
      std::vector<int64_t> at(segs.size());
      for (size_t k = 0; k < segs.size(); d += segs[k++].length) at[k] = d;
      parallel_chunks(
          static_cast<int64_t>(segs.size()),
          [&](size_t, int64_t begin, int64_t end) {
            for (int64_t k = begin; k < end; ++k) {
              const auto& s = segs[static_cast<size_t>(k)];
              std::memcpy(dst + at[static_cast<size_t>(k)] * stride[a], src + s.source * stride[a],
                          static_cast<size_t>(s.length * stride[a]));
            }
          },
          1);
      return;
    }
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

template <typename U>
U load(const std::byte* base, int64_t i) {
  U v;
  std::memcpy(&v, base + i * static_cast<int64_t>(sizeof(U)), sizeof(U));
  return v;
}
template <typename U>
void store(std::byte* base, int64_t i, U v) {
  std::memcpy(base + i * static_cast<int64_t>(sizeof(U)), &v, sizeof(U));
}

// A running sum along an axis of extent n ([outer, n, inner]) computed on reordered inputs, put
// back in order. A destination segment holds the sums of its source slices restarted from the
// sum of everything placed before it: subtract that, add the true sum before the source start.
// Unsigned arithmetic: wraps exactly as the integer sums do.
template <typename U>
void undo_running_sum(const AxisOrder& order, int64_t outer, int64_t n, int64_t inner,
                      const std::byte* src, std::byte* dst) {
  struct Piece {
    int64_t source, dest, length;
  };
  std::vector<Piece> pieces;
  int64_t at = 0;
  for (const auto& s : order.segments) {
    pieces.push_back({s.source, at, s.length});
    at += s.length;
  }
  std::sort(pieces.begin(), pieces.end(),
            [](const Piece& a, const Piece& b) { return a.source < b.source; });
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t k = 0; k < inner; ++k) {
      auto idx = [&](int64_t i) { return (o * n + i) * inner + k; };
      for (const Piece& p : pieces) {
        const U before_got = p.dest > 0 ? load<U>(src, idx(p.dest - 1)) : U{0};
        const U before_true = p.source > 0 ? load<U>(dst, idx(p.source - 1)) : U{0};
        for (int64_t j = 0; j < p.length; ++j)
          store<U>(dst, idx(p.source + j),
                   static_cast<U>(load<U>(src, idx(p.dest + j)) - before_got + before_true));
      }
    }
}

bool is_csr_tensor(const Task& task, const std::string& name) {
  if (!task.csr) return false;
  return name == task.csr->row_ptr ||
         std::find(task.csr->entries.begin(), task.csr->entries.end(), name) !=
             task.csr->entries.end();
}

// The CSR inputs with their rows reordered: each row's entries move with it (every entries
// tensor alike) and row_ptr is rebuilt for the new order. `in`/`out` are indexed by tensor.
void reorder_csr(const Task& task, const AxisOrder& rows_order,
                 const std::vector<const HostBuffer*>& in, std::vector<HostBuffer*>& out) {
  const CsrSpec& c = *task.csr;
  size_t rp_index = 0;
  std::vector<size_t> entry_index;
  for (size_t i = 0; i < task.tensors.size(); ++i) {
    if (task.tensors[i].name == c.row_ptr) rp_index = i;
    if (std::find(c.entries.begin(), c.entries.end(), task.tensors[i].name) != c.entries.end())
      entry_index.push_back(i);
  }
  const HostBuffer& rp = *in.at(rp_index);
  const int64_t rows = static_cast<int64_t>(rp.size() / sizeof(int32_t)) - 1;
  const int64_t stored = rows >= 0 ? load<int32_t>(rp.data(), rows) : -1;
  for (size_t e : entry_index) {
    const int64_t count =
        static_cast<int64_t>(in[e]->size() / dtype_size(task.tensors[e].dtype));
    if (rows < 0 || load<int32_t>(rp.data(), 0) != 0 || count != stored)
      throw std::logic_error("csr: '" + c.row_ptr + "' does not describe '" +
                             task.tensors[e].name + "' (" + std::to_string(count) +
                             " elements, row_ptr ends at " + std::to_string(stored) + ")");
  }
  HostBuffer& rp_out = *out.at(rp_index);
  store<int32_t>(rp_out.data(), 0, 0);
  int64_t row = 0, pos = 0;
  for (const auto& s : rows_order.segments) {
    const int32_t first = load<int32_t>(rp.data(), s.source);
    const int32_t last = load<int32_t>(rp.data(), s.source + s.length);
    if (last < first) throw std::logic_error("csr: '" + c.row_ptr + "' decreases");
    for (int64_t j = 1; j <= s.length; ++j)
      store<int32_t>(rp_out.data(), row + j,
                     static_cast<int32_t>(pos + load<int32_t>(rp.data(), s.source + j) - first));
    for (size_t e : entry_index) {
      const size_t size = dtype_size(task.tensors[e].dtype);
      std::memcpy(out[e]->data() + pos * static_cast<int64_t>(size),
                  in[e]->data() + first * static_cast<int64_t>(size),
                  static_cast<size_t>(last - first) * size);
    }
    row += s.length;
    pos += last - first;
  }
}

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
  if (task.csr && r.axes.count(task.csr->rows) && is_csr_tensor(task, t.name))
    throw std::logic_error("reorder_tensor: '" + t.name +
                           "' is part of a CSR matrix; reorder_inputs moves it with its rows");
  if (std::find(task.running_sums.begin(), task.running_sums.end(), t.name) !=
      task.running_sums.end()) {
    const std::vector<int64_t> dims = task.dims(t, shape);
    for (size_t a = 0; a < dims.size(); ++a) {
      auto it = r.axes.find(t.shape[a].text());
      if (it == r.axes.end()) continue;
      if (!inverse)
        throw std::logic_error("reorder_tensor: the running sum '" + t.name +
                               "' can only be put back in order");
      int64_t outer = 1, inner = 1;
      for (size_t b = 0; b < a; ++b) outer *= dims[b];
      for (size_t b = a + 1; b < dims.size(); ++b) inner *= dims[b];
      switch (dtype_size(t.dtype)) {
        case 1: undo_running_sum<uint8_t>(it->second, outer, dims[a], inner, src, dst); return;
        case 2: undo_running_sum<uint16_t>(it->second, outer, dims[a], inner, src, dst); return;
        case 4: undo_running_sum<uint32_t>(it->second, outer, dims[a], inner, src, dst); return;
        default: undo_running_sum<uint64_t>(it->second, outer, dims[a], inner, src, dst); return;
      }
    }
  }
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

void reorder_inputs(const Task& task, const Shape& shape, const Reordering& r,
                    const std::vector<HostBuffer>& inputs, std::vector<HostBuffer>& out) {
  // Every element of every output buffer is written below, so buffers of the right size are
  // reused as they are: no allocation (and no page faults) per timed pair.
  out.resize(inputs.size());
  for (size_t k = 0; k < inputs.size(); ++k) out[k].resize(inputs[k].size());
  std::vector<const HostBuffer*> in_of(task.tensors.size(), nullptr);
  std::vector<HostBuffer*> out_of(task.tensors.size(), nullptr);
  const bool csr = task.csr && r.axes.count(task.csr->rows);
  size_t k = 0;
  for (size_t i = 0; i < task.tensors.size(); ++i) {
    if (task.tensors[i].role != Role::kInput) continue;
    const HostBuffer& in = inputs.at(k);
    in_of[i] = &in;
    out_of[i] = &out[k];
    ++k;
    if (!(csr && is_csr_tensor(task, task.tensors[i].name)))
      reorder_tensor(task, shape, r, i, in.data(), out_of[i]->data());
  }
  if (csr) reorder_csr(task, r.axes.at(task.csr->rows), in_of, out_of);
}

std::vector<HostBuffer> reorder_inputs(const Task& task, const Shape& shape, const Reordering& r,
                                       const std::vector<HostBuffer>& inputs) {
  std::vector<HostBuffer> out;
  reorder_inputs(task, shape, r, inputs, out);
  return out;
}

}  // namespace arena
