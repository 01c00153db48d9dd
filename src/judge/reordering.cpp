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

// Walks a tensor's reordering as byte moves: emit(source offset, destination offset, bytes)
// for each contiguous piece, in destination order. Runs of axes that keep their order move as
// one piece.
struct Copier {
  std::vector<int64_t> dims;
  std::vector<int64_t> stride;          // bytes per step of each axis
  std::vector<const AxisOrder*> order;  // null: the axis keeps its order
  std::vector<bool> rest_in_order;      // this axis and every later one keep their order

  template <typename Emit>
  void walk(size_t a, int64_t src, int64_t dst, Emit& emit) const {
    if (a == dims.size() || rest_in_order[a]) {
      emit(src, dst, a == dims.size() ? stride.back() : dims[a] * stride[a]);
      return;
    }
    const bool tail_in_order = a + 1 == dims.size() || rest_in_order[a + 1];
    if (!order[a]) {
      for (int64_t i = 0; i < dims[a]; ++i) walk(a + 1, src + i * stride[a], dst + i * stride[a], emit);
      return;
    }
    int64_t d = 0;
    for (const auto& s : order[a]->segments) {
      if (tail_in_order) {
        emit(src + s.source * stride[a], dst + d * stride[a], s.length * stride[a]);
      } else {
        for (int64_t j = 0; j < s.length; ++j)
          walk(a + 1, src + (s.source + j) * stride[a], dst + (d + j) * stride[a], emit);
      }
      d += s.length;
    }
  }

  // How many moves walk() emits.
  int64_t move_count(size_t a = 0) const {
    if (a == dims.size() || rest_in_order[a]) return 1;
    const bool tail_in_order = a + 1 == dims.size() || rest_in_order[a + 1];
    if (!order[a]) return dims[a] * move_count(a + 1);
    return tail_in_order ? static_cast<int64_t>(order[a]->segments.size()) : dims[a] * move_count(a + 1);
  }
};

// At most this many moves are listed (24 bytes each); a reordering with more is walked.
constexpr int64_t kMaxListedMoves = int64_t{1} << 20;

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
    const auto count =
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
    const auto first = load<int32_t>(rp.data(), s.source);
    const auto last = load<int32_t>(rp.data(), s.source + s.length);
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

// The walk of tensor `index`'s reordering (its undoing when `inverse`); the inverted axis
// orders it points to are kept in `inverses`.
Copier make_copier(const Task& task, const Shape& shape, const Reordering& r, size_t index, bool inverse,
                   std::vector<AxisOrder>& inverses) {
  const TensorSpec& t = task.tensors.at(index);
  Copier c;
  c.dims = task.dims(t, shape);
  const size_t n = c.dims.size();
  inverses.clear();
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
  return c;
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
  if (t.shape.empty()) {
    std::memcpy(dst, src, dtype_size(t.dtype));
    return;
  }
  std::vector<AxisOrder> inverses;
  const Copier c = make_copier(task, shape, r, index, inverse, inverses);
  const int64_t count = c.move_count();
  if (count > kMaxListedMoves) {
    auto copy = [&](int64_t from, int64_t to, int64_t bytes) {
      std::memcpy(dst + to, src + from, static_cast<size_t>(bytes));
    };
    c.walk(0, 0, 0, copy);
    return;
  }
  std::vector<ByteMove> moves;
  moves.reserve(static_cast<size_t>(count));
  auto list = [&](int64_t from, int64_t to, int64_t bytes) {
    moves.push_back({static_cast<uint64_t>(from), static_cast<uint64_t>(to), static_cast<uint64_t>(bytes)});
  };
  c.walk(0, 0, 0, list);
  apply_moves(moves, src, dst);
}

std::optional<std::vector<ByteMove>> reorder_moves(const Task& task, const Shape& shape, const Reordering& r,
                                                   size_t index) {
  const TensorSpec& t = task.tensors.at(index);
  if (task.csr && r.axes.count(task.csr->rows) && is_csr_tensor(task, t.name)) return std::nullopt;
  for (size_t a = 0; a < t.shape.size(); ++a)
    if (r.axes.count(t.shape[a].text()) &&
        std::find(task.running_sums.begin(), task.running_sums.end(), t.name) != task.running_sums.end())
      return std::nullopt;
  if (t.shape.empty()) return std::vector<ByteMove>{{0, 0, dtype_size(t.dtype)}};
  std::vector<AxisOrder> inverses;
  const Copier c = make_copier(task, shape, r, index, /*inverse=*/false, inverses);
  const int64_t count = c.move_count();
  if (count > kMaxListedMoves) return std::nullopt;
  std::vector<ByteMove> moves;
  moves.reserve(static_cast<size_t>(count));
  auto list = [&](int64_t from, int64_t to, int64_t bytes) {
    if (bytes > 0)
      moves.push_back({static_cast<uint64_t>(from), static_cast<uint64_t>(to), static_cast<uint64_t>(bytes)});
  };
  c.walk(0, 0, 0, list);
  return moves;
}

void apply_moves(const std::vector<ByteMove>& moves, const std::byte* src, std::byte* dst) {
  if (moves.size() == 1) {
    parallel_copy(dst + moves[0].dest, src + moves[0].source, moves[0].bytes);
    return;
  }
  uint64_t total = 0;
  for (const auto& m : moves) total += m.bytes;
  // Large: the moves across the host's cores (a timed pair reorders hundreds of MB).
  const int64_t min_chunk = total >= (uint64_t{16} << 20) ? 1 : static_cast<int64_t>(moves.size());
  parallel_chunks(
      static_cast<int64_t>(moves.size()),
      [&](size_t, int64_t begin, int64_t end) {
        for (int64_t k = begin; k < end; ++k) {
          const ByteMove& m = moves[static_cast<size_t>(k)];
          std::memcpy(dst + m.dest, src + m.source, m.bytes);
        }
      },
      min_chunk);
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
