// Fresh input content for every timed call, without a new reference: a task that declares
// `equivariant: [rows]` promises that reordering the slices of every tensor axis whose extent is
// exactly `rows` (the same reordering for every tensor) reorders its outputs the same way. The
// judge draws a new reordering before each timed call, gives the solution the reordered inputs,
// and checks the output after undoing the reordering, against the reference it already has. A
// solution that remembers an answer by input address or content replays it in the wrong order.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/task.hpp"
#include "judge/buffer_layout.hpp"
#include "judge/input_generator.hpp"

namespace arena {

// One axis' new order as segments of the old one: destination slices come from
// [source, source + length) in turn.
struct AxisOrder {
  struct Segment {
    int64_t source = 0;
    int64_t length = 0;
  };
  std::vector<Segment> segments;
};

// A reordering per equivariant param. Cut into at most 256 chunks, moved as one cycle (no chunk
// stays in place), so the content at every position changes wherever the chunks differ.
struct Reordering {
  std::map<std::string, AxisOrder> axes;
  bool empty() const { return axes.empty(); }
};

// A fresh reordering of `task`'s equivariant params at `shape`, from `key`. Empty when the task
// declares none, or every such param is 1 here.
Reordering draw_reordering(const Task& task, const Shape& shape, uint64_t key);

// `src` (tensor `index` of the task, at `shape`) with its equivariant axes reordered, into
// `dst` (same size). `inverse` undoes the reordering instead. A running-sum output
// (task.running_sums) is only undone (inverse); a CSR tensor only moves through reorder_inputs.
void reorder_tensor(const Task& task, const Shape& shape, const Reordering& r, size_t index,
                    const std::byte* src, std::byte* dst, bool inverse = false);

// Tensor `index`'s reordering as byte moves (offsets within the tensor), the same that
// reorder_tensor makes: what the device plane replays on the device. nullopt where it is no
// list of moves: a running sum, a CSR tensor, or more than a million pieces.
std::optional<std::vector<ByteMove>> reorder_moves(const Task& task, const Shape& shape, const Reordering& r,
                                                   size_t index);
// Carries out `moves` from `src` into `dst` (large lists across the host's cores).
void apply_moves(const std::vector<ByteMove>& moves, const std::byte* src, std::byte* dst);

// The task's inputs (in task order, as generate_inputs makes them) reordered; a CSR matrix
// (task.csr) has its rows moved with their entries and its row pointers rebuilt.
std::vector<HostBuffer> reorder_inputs(const Task& task, const Shape& shape, const Reordering& r,
                                       const std::vector<HostBuffer>& inputs);
// The same into `out`, reusing its buffers where they already have the right sizes (the timing
// loop draws new inputs for every pair of calls).
void reorder_inputs(const Task& task, const Shape& shape, const Reordering& r,
                    const std::vector<HostBuffer>& inputs, std::vector<HostBuffer>& out);

}  // namespace arena
