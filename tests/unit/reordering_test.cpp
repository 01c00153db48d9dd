#include "judge/reordering.hpp"

#include <gtest/gtest.h>

#include <cstring>

#include "core/error.hpp"
#include "core/task_loader.hpp"
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

}  // namespace
}  // namespace arena
