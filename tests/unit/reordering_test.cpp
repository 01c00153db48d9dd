#include "judge/reordering.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "core/error.hpp"
#include "core/task_loader.hpp"
#include "judge/input_generator.hpp"
#include "task_files.hpp"

namespace arena {
namespace {

using testing::replace;
using testing::TempTask;
using testing::valid_task_yaml;

// in [rows, cols] -> out [cols, rows]: equivariant along both.
std::string transpose_yaml() {
  return R"(name: tr
backend: cpu
category: cpu2cpu
params:
  rows: {min: 1, max: 100000}
  cols: {min: 1, max: 100000}
tensors:
  - {name: in, dtype: fp32, role: input, shape: [rows, cols]}
  - {name: out, dtype: fp32, role: output, shape: [cols, rows]}
flops: "0"
bytes: "8 * rows * cols"
visible:
  - {rows: 7, cols: 5}
equivariant: [rows, cols]
reference: reference.cpp
starter: starter.cpp
)";
}

std::vector<float> iota_floats(size_t n) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<float>(i);
  return v;
}

std::byte* bytes(std::vector<float>& v) {
  return reinterpret_cast<std::byte*>(v.data());
}

TEST(Reordering, EveryChunkMovesAndTheSameKeyGivesTheSameOrder) {
  TempTask t{replace(valid_task_yaml(), "reference: reference.cpp",
                     "equivariant: [n]\nreference: reference.cpp")};
  Task task = load_task(t.dir());
  Shape s{{{"n", 1000}}};
  Reordering a = draw_reordering(task, s, 42), b = draw_reordering(task, s, 42),
             c = draw_reordering(task, s, 43);
  ASSERT_EQ(a.axes.count("n"), 1u);
  const auto& segs = a.axes.at("n").segments;
  EXPECT_EQ(segs.size(), 256u);
  int64_t at = 0, total = 0;
  for (const auto& seg : segs) {
    EXPECT_NE(seg.source, at) << "a chunk stayed in place";
    at += seg.length;
    total += seg.length;
  }
  EXPECT_EQ(total, 1000);
  auto sources = [](const Reordering& r) {
    std::vector<int64_t> v;
    for (const auto& seg : r.axes.at("n").segments) v.push_back(seg.source);
    return v;
  };
  EXPECT_EQ(sources(a), sources(b));
  EXPECT_NE(sources(a), sources(c));
}

TEST(Reordering, UndoingItGivesBackTheTensorAndEveryElementMoved) {
  TempTask t{replace(valid_task_yaml(), "reference: reference.cpp",
                     "equivariant: [n]\nreference: reference.cpp")};
  Task task = load_task(t.dir());
  for (int64_t n : {2, 3, 255, 256, 257, 4097}) {
    Shape s{{{"n", n}}};
    Reordering r = draw_reordering(task, s, static_cast<uint64_t>(n));
    auto in = iota_floats(static_cast<size_t>(n)), moved = in, back = in;
    reorder_tensor(task, s, r, 0, bytes(in), bytes(moved));
    for (int64_t i = 0; i < n; ++i) EXPECT_NE(moved[i], in[i]) << "n=" << n << " position " << i;
    reorder_tensor(task, s, r, 2, bytes(moved), bytes(back), /*inverse=*/true);
    EXPECT_EQ(back, in) << "n=" << n;
  }
  Shape one{{{"n", 1}}};
  EXPECT_TRUE(draw_reordering(task, one, 1).empty()) << "nothing to reorder along an axis of 1";
}

TEST(Reordering, ATransposeOfReorderedInputIsTheReorderedTranspose) {
  TempTask t{transpose_yaml()};
  Task task = load_task(t.dir());
  const int64_t rows = 300, cols = 7;
  Shape s{{{"rows", rows}, {"cols", cols}}};
  Reordering r = draw_reordering(task, s, 9);
  EXPECT_EQ(r.axes.size(), 2u);
  auto transpose = [&](const std::vector<float>& in) {
    std::vector<float> out(in.size());
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j) out[j * rows + i] = in[i * cols + j];
    return out;
  };
  auto in = iota_floats(rows * cols), in_moved = in;
  reorder_tensor(task, s, r, 0, bytes(in), bytes(in_moved));
  auto out_of_moved = transpose(in_moved), back = out_of_moved;
  reorder_tensor(task, s, r, 1, bytes(out_of_moved), bytes(back), /*inverse=*/true);
  EXPECT_EQ(back, transpose(in)) << "the judge's check: undo the order, compare with the reference";
  // Inputs as the judge hands them over: every input reordered, in task order.
  auto reordered =
      reorder_inputs(task, s, r, {HostBuffer(bytes(in), bytes(in) + in.size() * sizeof(float))});
  ASSERT_EQ(reordered.size(), 1u);
  EXPECT_EQ(std::memcmp(reordered[0].data(), in_moved.data(), reordered[0].size()), 0);
}

// The device plane replays reorder_moves on the device: applied to a buffer, the moves must
// give exactly what reorder_tensor gives, for an outer axis, an inner one, and both.
TEST(Reordering, TheMovesTheDeviceReplaysAreTheHostReordering) {
  TempTask t{transpose_yaml()};
  Task task = load_task(t.dir());
  for (auto [rows, cols] : {std::pair<int64_t, int64_t>{300, 7}, {5, 1000}, {1, 600}, {2, 2}}) {
    Shape s{{{"rows", rows}, {"cols", cols}}};
    Reordering r = draw_reordering(task, s, static_cast<uint64_t>(rows * 31 + cols));
    auto in = iota_floats(static_cast<size_t>(rows * cols));
    for (size_t index : {size_t{0}, size_t{1}}) {
      auto host = in, replayed = in;
      std::fill(replayed.begin(), replayed.end(), -1.0f);
      reorder_tensor(task, s, r, index, bytes(in), bytes(host));
      auto moves = reorder_moves(task, s, r, index);
      ASSERT_TRUE(moves.has_value());
      uint64_t moved = 0;
      for (const auto& m : *moves) moved += m.bytes;
      EXPECT_EQ(moved, in.size() * sizeof(float)) << "every byte is moved exactly once";
      apply_moves(*moves, bytes(in), bytes(replayed));
      EXPECT_EQ(replayed, host) << rows << "x" << cols << " tensor " << index;
    }
  }
  // Nothing to reorder: one move of the whole tensor.
  Shape one{{{"rows", 1}, {"cols", 1}}};
  auto whole = reorder_moves(task, one, draw_reordering(task, one, 1), 0);
  ASSERT_TRUE(whole.has_value());
  ASSERT_EQ(whole->size(), 1u);
  EXPECT_EQ((*whole)[0].bytes, sizeof(float));
}

TEST(Reordering, TheTaskFileNamesAParamThatReordersAnInput) {
  auto with = [](const std::string& list) {
    return replace(valid_task_yaml(), "reference: reference.cpp",
                   "equivariant: " + list + "\nreference: reference.cpp");
  };
  TempTask unknown{with("[m]")};
  try {
    load_task(unknown.dir());
    FAIL() << "an unknown param must be refused";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("equivariant[0]"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'m' is not a param"), std::string::npos) << e.what();
  }
  std::string no_axis = replace(valid_task_yaml(), "  n: {min: 1, max: 100000000}",
                                "  n: {min: 1, max: 100000000}\n  k: {min: 1, max: 4}");
  no_axis =
      replace(no_axis, "  - {n: 1000}\n  - {n: 4097}", "  - {n: 1000, k: 1}\n  - {n: 4097, k: 2}");
  no_axis =
      replace(no_axis, "reference: reference.cpp", "equivariant: [k]\nreference: reference.cpp");
  TempTask unused{no_axis};
  try {
    load_task(unused.dir());
    FAIL() << "a param no input is laid out along must be refused";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no input tensor has an axis of extent exactly 'k'"),
              std::string::npos)
        << e.what();
  }
}

// out[i] = in[0] + ... + in[i] in int32: reordered inputs, put back in order exactly.
TEST(Reordering, ARunningSumIsPutBackInOrderExactly) {
  TempTask t{R"(name: scan
backend: cpu
category: cpu2cpu
params:
  n: {min: 1, max: 100000000}
tensors:
  - {name: in, dtype: int32, role: input, shape: [n]}
  - {name: out, dtype: int32, role: output, shape: [n]}
flops: "n"
bytes: "8 * n"
visible:
  - {n: 1000}
equivariant: [n]
running_sums: [out]
reference: reference.cpp
starter: starter.cpp
)"};
  Task task = load_task(t.dir());
  for (int64_t n : {1000, 3, 100003}) {
    Shape s{{{"n", n}}};
    std::vector<int32_t> in(static_cast<size_t>(n));
    // Large values: the sums wrap around, and undoing them must wrap the same way.
    for (int64_t i = 0; i < n; ++i)
      in[static_cast<size_t>(i)] = static_cast<int32_t>((i * 2654435761u) ^ 0x5bd1e995u);
    auto scan = [](const std::vector<int32_t>& v) {
      std::vector<int32_t> o(v.size());
      uint32_t acc = 0;
      for (size_t i = 0; i < v.size(); ++i) o[i] = static_cast<int32_t>(acc += static_cast<uint32_t>(v[i]));
      return o;
    };
    auto as_bytes = [](auto& v) { return reinterpret_cast<std::byte*>(v.data()); };
    Reordering r = draw_reordering(task, s, 7);
    auto moved = reorder_inputs(task, s, r, {HostBuffer(as_bytes(in), as_bytes(in) + in.size() * 4)});
    std::vector<int32_t> in_moved(in.size());
    std::memcpy(in_moved.data(), moved[0].data(), moved[0].size());
    ASSERT_NE(in_moved, in) << "n=" << n;
    auto got = scan(in_moved), back = got;
    ASSERT_NE(got, scan(in));
    reorder_tensor(task, s, r, 1, as_bytes(got), as_bytes(back), /*inverse=*/true);
    EXPECT_EQ(back, scan(in)) << "n=" << n;
    // A stale answer (the sums of the inputs before the reordering) does not come back right.
    auto stale = scan(in), stale_back = stale;
    reorder_tensor(task, s, r, 1, as_bytes(stale), as_bytes(stale_back), /*inverse=*/true);
    EXPECT_NE(stale_back, scan(in)) << "n=" << n;
    EXPECT_THROW(reorder_tensor(task, s, r, 1, as_bytes(got), as_bytes(back)), std::logic_error)
        << "a running sum cannot be reordered forward";
    EXPECT_FALSE(reorder_moves(task, s, r, 1).has_value()) << "a running sum is no list of moves";
    EXPECT_TRUE(reorder_moves(task, s, r, 0).has_value());
  }
}

// y = A·x with A in CSR: rows reordered with their entries, y reordered alike.
TEST(Reordering, CsrRowsMoveWithTheirEntries) {
  TempTask t{R"(name: spmv
backend: cpu
category: cpu2cpu
params:
  rows: {min: 1, max: 100000}
  cols: {min: 1, max: 100000}
  nnz: {min: 1, max: 1000000}
tensors:
  - {name: row_ptr, dtype: int32, role: input, shape: ["rows + 1"], distribution: {kind: offsets, total: nnz}}
  - {name: col_idx, dtype: int32, role: input, shape: [nnz], distribution: {kind: integer, low: 0, high: "cols - 1"}}
  - {name: values, dtype: fp32, role: input, shape: [nnz]}
  - {name: x, dtype: fp32, role: input, shape: [cols]}
  - {name: y, dtype: fp32, role: output, shape: [rows]}
flops: "2 * nnz"
bytes: "8 * nnz"
visible:
  - {rows: 300, cols: 50, nnz: 5000}
equivariant: [rows]
csr: {rows: rows, row_ptr: row_ptr, entries: [col_idx, values]}
reference: reference.cpp
starter: starter.cpp
)"};
  Task task = load_task(t.dir());
  Shape s = task.visible[0];
  auto inputs = generate_inputs(task, s, 11);
  auto spmv = [&](const std::vector<HostBuffer>& in) {
    std::vector<int32_t> rp(301), col(5000);
    std::vector<float> val(5000), x(50), y(300);
    std::memcpy(rp.data(), in[0].data(), in[0].size());
    std::memcpy(col.data(), in[1].data(), in[1].size());
    std::memcpy(val.data(), in[2].data(), in[2].size());
    std::memcpy(x.data(), in[3].data(), in[3].size());
    for (size_t i = 0; i < 300; ++i)
      for (int32_t k = rp[i]; k < rp[i + 1]; ++k) y[i] += val[static_cast<size_t>(k)] * x[static_cast<size_t>(col[static_cast<size_t>(k)])];
    return y;
  };
  Reordering r = draw_reordering(task, s, 5);
  ASSERT_EQ(r.axes.count("rows"), 1u);
  auto moved = reorder_inputs(task, s, r, inputs);
  ASSERT_EQ(moved.size(), 4u);
  EXPECT_NE(std::memcmp(moved[0].data(), inputs[0].data(), inputs[0].size()), 0);
  EXPECT_NE(std::memcmp(moved[2].data(), inputs[2].data(), inputs[2].size()), 0);
  EXPECT_EQ(std::memcmp(moved[3].data(), inputs[3].data(), inputs[3].size()), 0) << "x keeps its order";
  auto y = spmv(inputs), y_moved = spmv(moved), back = y_moved;
  reorder_tensor(task, s, r, 4, reinterpret_cast<std::byte*>(y_moved.data()),
                 reinterpret_cast<std::byte*>(back.data()), /*inverse=*/true);
  EXPECT_EQ(back, y) << "every row sums the same entries in the same order: bit-equal";
  EXPECT_NE(y_moved, y);
  EXPECT_THROW(reorder_tensor(task, s, r, 0, moved[0].data(), moved[0].data()), std::logic_error)
      << "row_ptr alone cannot be reordered";
  EXPECT_FALSE(reorder_moves(task, s, r, 0).has_value()) << "CSR rows are no list of moves";
  EXPECT_TRUE(reorder_moves(task, s, r, 3).has_value()) << "x keeps its order: one move";

  // The timing loop reuses its buffers pair after pair: whatever they held is overwritten.
  std::vector<HostBuffer> reused = moved;
  for (auto& b : reused) std::fill(b.begin(), b.end(), std::byte{0xA5});
  reorder_inputs(task, s, r, inputs, reused);
  EXPECT_EQ(reused, moved) << "stale bytes left in a reused buffer";
  Reordering r2 = draw_reordering(task, s, 6);
  reorder_inputs(task, s, r2, inputs, reused);
  EXPECT_EQ(reused, reorder_inputs(task, s, r2, inputs)) << "the previous pair's order left behind";
  EXPECT_NE(reused, moved);
}

TEST(Reordering, RunningSumsAndCsrAreCheckedWhenTheTaskLoads) {
  auto refused = [](const std::string& yaml, const std::string& words) {
    TempTask t{yaml};
    try {
      load_task(t.dir());
      ADD_FAILURE() << "must be refused: " << words;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  };
  const std::string base = valid_task_yaml();  // fp32 in a, b -> out along n
  refused(replace(base, "reference: reference.cpp",
                  "equivariant: [n]\nrunning_sums: [out]\nreference: reference.cpp"),
          "only integer running sums");
  refused(replace(base, "reference: reference.cpp", "running_sums: [out]\nreference: reference.cpp"),
          "running_sums goes with 'equivariant'");
  refused(replace(base, "reference: reference.cpp",
                  "equivariant: [n]\nrunning_sums: [a]\nreference: reference.cpp"),
          "must be an output");
  refused(replace(base, "reference: reference.cpp",
                  "equivariant: [n]\ncsr: {rows: n, row_ptr: a, entries: [b]}\nreference: reference.cpp"),
          "must not be an equivariant param itself");
  refused(replace(base, "reference: reference.cpp",
                  "csr: {rows: n, row_ptr: a, entries: [b]}\nreference: reference.cpp"),
          "must be listed in 'equivariant'");
}

}  // namespace
}  // namespace arena
