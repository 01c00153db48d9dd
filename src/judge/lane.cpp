#include "judge/lane.hpp"

#include <unistd.h>

#include <cstring>

#include "core/error.hpp"
#include "core/parallel.hpp"
#include "judge/placements.hpp"

namespace arena {

namespace {
std::vector<size_t> tensor_bytes(const Task& task, const Shape& shape) {
  std::vector<size_t> bytes;
  for (const auto& t : task.tensors) bytes.push_back(static_cast<size_t>(task.bytes_of(t, shape)));
  return bytes;
}
}  // namespace

int64_t region_bytes(const Task& task, const Shape& shape) {
  return static_cast<int64_t>(make_layout(tensor_bytes(task, shape)).total_bytes);
}

Lane::Lane(const Backend& backend, const Task& task, std::filesystem::path library,
           int64_t max_region_bytes)
    : backend_(backend),
      task_(task),
      library_(std::move(library)),
      max_region_bytes_(max_region_bytes) {}

Lane::~Lane() {
  for (const Runner& r : runners_)
    if (r.device_buffer.fd >= 0) close(r.device_buffer.fd);
}

RunnerSpec lane_runner_spec(const Backend& backend, const std::filesystem::path& library,
                            int64_t max_region_bytes, bool trusted) {
  RunnerSpec spec = backend.runner(library, max_region_bytes);
  if (trusted) spec = backend.trusted_runner(std::move(spec));
  spec.thread_cpu_times = backend.times_on_host_clock();  // the timer check's figures
  return spec;
}

void Lane::start() {
  // Fewer wanted than held: the extra ones end (their destructors reap them), their buffers go.
  while (runners_.size() > static_cast<size_t>(wanted_runners_)) {
    if (plane_ != nullptr) plane_->release(runners_.back().device_buffer);
    runners_.pop_back();
  }
  runners_.resize(static_cast<size_t>(wanted_runners_));
  if (current_ >= runners_.size()) current_ = 0;
  for (size_t i = 0; i < runners_.size(); ++i)
    if (runners_[i].number == 0) runners_[i].number = static_cast<int>(i) + 1;
  for (Runner& r : runners_) {
    if (r.client && r.client->alive()) continue;
    if (spec_) {
      RunnerSpec spec = *spec_;
      spec.thread_cpu_times = backend_.times_on_host_clock();
      r.client = std::make_unique<RunnerClient>(spec);
    } else {
      RunnerSpec spec = lane_runner_spec(backend_, library_, max_region_bytes_, trusted_);
      r.client = pool_ != nullptr ? pool_->take(spec) : std::make_unique<RunnerClient>(spec);
    }
    r.counted_start = false;
  }
}

void Lane::drop_runner(int i, const std::string& why) {
  if (i < 0 || i >= runners() || runners() < 2)
    throw InternalError("drop_runner " + std::to_string(i) + " of a lane with " +
                        std::to_string(runners()));
  Runner& r = runners_[static_cast<size_t>(i)];
  if (!fewer_runners_because_.empty()) fewer_runners_because_ += "; ";
  fewer_runners_because_ +=
      "runner " + std::to_string(r.number) + " of " + std::to_string(asked_runners_) + " " + why;
  if (plane_ != nullptr) plane_->release(r.device_buffer);
  runners_.erase(runners_.begin() + i);  // its client's destructor ends and reaps the process
  wanted_runners_ = runners();
  current_ = 0;
  if (!layout_.slots.empty()) use_placement(runners_[0].placement);
}

void Lane::use_runner(int i) {
  if (i < 0 || i >= runners())
    throw InternalError("runner " + std::to_string(i) + " of a lane with " +
                        std::to_string(runners()));
  current_ = static_cast<size_t>(i);
  use_placement(runners_[current_].placement);
}

std::optional<int> Lane::quit(double timeout_s) {
  return !runners_.empty() && runners_[0].client ? runners_[0].client->quit(timeout_s)
                                                 : std::nullopt;
}

std::vector<pid_t> Lane::hand_over() {
  std::vector<pid_t> pids;
  for (Runner& r : runners_)
    if (r.client) pids.push_back(r.client->hand_over());
  return pids;
}

bool Lane::allocate_device_buffers(int placements, std::string* why) {
  const uint64_t bytes =
      placements > 1 ? placements * placement_stride(layout_.total_bytes) : layout_.total_bytes;
  for (Runner& r : runners_) {
    r.device_buffer = plane_->allocate(bytes, /*exported=*/true, why);
    if (r.device_buffer.id != 0) continue;
    for (Runner& other : runners_) plane_->release(other.device_buffer);
    return false;
  }
  return true;
}

std::string Lane::prepare(const Shape& shape) {
  start();
  // They started side by side: waiting for each in turn waits about as long as for the slowest.
  size_t up = 0;
  for (Runner& r : runners_) {
    bool ready = r.client->wait_ready();
    if (!r.counted_start) {
      runner_start_seconds_ += r.client->waited_seconds();
      r.counted_start = true;
    }
    up += ready ? 1 : 0;
  }
  if (up == 0) {
    failed_ = 0;
    return runners_[0].client->start_error();
  }
  // Some are up: the others' failure comes of the judge's choice to load the solution more
  // than once (one that takes most of the device's memory at load, say), not of the solution.
  // The side goes on with those that are up, for the rest of the eval, and the verdict says why.
  for (size_t i = runners_.size(); i-- > 0;)
    if (!runners_[i].client->start_error().empty())
      drop_runner(static_cast<int>(i), "could not start: " + runners_[i].client->start_error());
  dims_.clear();
  for (const auto& t : task_.tensors) dims_.push_back(task_.dims(t, shape));
  layout_ = make_layout(tensor_bytes(task_, shape));
  // The runners' mappings keep the old buffers until remapped below.
  if (plane_ != nullptr)
    for (Runner& r : runners_) plane_->release(r.device_buffer);
  placements_ = 1;
  if (plane_ != nullptr && (device_plane_off_ = plane_->unavailable()).empty()) {
    // Several placements where they fit (judge/placements.hpp), the wanted ones shared out
    // among the runners; else one, as the region needs.
    const int per_runner = (wanted_placements_ + runners() - 1) / runners();
    placements_ = placements_for(layout_.total_bytes, per_runner);
    if (placements_ == 1 || !allocate_device_buffers(placements_, &device_plane_off_)) {
      placements_ = 1;
      device_plane_off_.clear();  // the one placement may fit where all did not
      allocate_device_buffers(1, &device_plane_off_);
    }
  }
  for (Runner& r : runners_) {
    if (r.device_buffer.id != 0) {
      r.client->map_region(layout_.total_bytes, r.device_buffer.fd, r.device_buffer.bytes);
    } else {
      r.client->map_region(layout_.total_bytes);  // the runner's own device buffers
    }
    r.placement = 0;
    r.inputs_on_device = false;
  }
  offsets_.clear();
  for (const auto& s : layout_.slots) offsets_.push_back(s.offset);
  use_runner(0);
  output_ranges_.clear();
  auto add_range = [&](uint64_t begin, uint64_t end) {
    if (!output_ranges_.empty() &&
        output_ranges_.back().first + output_ranges_.back().second == begin) {
      output_ranges_.back().second += end - begin;
    } else {
      output_ranges_.emplace_back(begin, end - begin);
    }
  };
  for (size_t i = 0; i < layout_.slots.size(); ++i) {
    const auto& s = layout_.slots[i];
    const uint64_t guard = BufferLayout::kGuardBytes;
    if (task_.tensors[i].role == Role::kOutput) {
      add_range(s.offset - guard, s.offset + s.bytes + guard);
    } else {
      add_range(s.offset - guard, s.offset);
      add_range(s.offset + s.bytes, s.offset + s.bytes + guard);
    }
  }
  Bindings b = task_.bind(shape);
  scalars_.clear();
  for (const auto& sc : task_.scalars) {
    double v = sc.value.eval(b);
    scalars_.push_back({static_cast<int64_t>(v), v});
  }
  poisons_.assign(task_.tensors.size(), Poison{});
  return "";
}

DevicePlane::Buffer Lane::placement(int runner, int j) const {
  if (runner < 0 || runner >= runners() ||
      runners_[static_cast<size_t>(runner)].device_buffer.id == 0 || j < 0 || j >= placements_)
    throw InternalError("placement " + std::to_string(j) + " of runner " + std::to_string(runner) +
                        " of a lane with " + std::to_string(runners()) + " runner(s) of " +
                        std::to_string(placements_));
  return runners_[static_cast<size_t>(runner)].device_buffer.view(
      static_cast<uint64_t>(j) * placement_stride(layout_.total_bytes), layout_.total_bytes);
}

void Lane::use_placement(int j) {
  runners_.at(current_).placement = j;
  call_offsets_ = offsets_;
  if (!on_plane()) return;
  placement_view_ = placement(runner_index(), j);
  for (auto& o : call_offsets_) o += placement_view_.base;
}

void Lane::next_placement() {
  use_placement((runners_.at(current_).placement + 1) % placements_);
}

void Lane::write_inputs(const std::vector<HostBuffer>& inputs) {
  for (Runner& r : runners_) {
    size_t k = 0;
    for (size_t i = 0; i < task_.tensors.size(); ++i) {
      if (task_.tensors[i].role != Role::kInput) continue;
      const HostBuffer& src = inputs.at(k++);
      parallel_copy(r.client->region() + layout_.slots[i].offset, src.data(), src.size());
    }
    r.inputs_on_device = false;
  }
}

template <typename Fill>
void Lane::for_each_poisoned_output(uint64_t nonce, Fill fill) {
  for (size_t i = 0; i < task_.tensors.size(); ++i) {
    const auto& t = task_.tensors[i];
    if (t.role != Role::kOutput) continue;
    poisons_[i] = make_poison(t.dtype, nonce + i);
    fill(poisons_[i], layout_.slots[i], dtype_size(t.dtype));
  }
}

void Lane::poison_outputs(uint64_t nonce) {
  for_each_poisoned_output(nonce, [&](const Poison& p, const BufferLayout::Slot& s, size_t size) {
    fill_poison(p, runner().region() + s.offset, s.bytes / size);
  });
}

void Lane::poison_outputs_on_device(uint64_t nonce) {
  if (device_plane() == nullptr)
    throw InternalError("poison_outputs_on_device: the lane has no device plane buffer");
  for_each_poisoned_output(nonce, [&](const Poison& p, const BufferLayout::Slot& s, size_t size) {
    plane_->fill(placement_view_, s.offset, s.bytes / size, static_cast<uint32_t>(size), p.bits);
  });
}

void Lane::arm_guards(uint64_t key) {
  guard_key_ = key;
  for (Runner& r : runners_) fill_guards(r.client->region(), layout_, key);
}

CallOutcome Lane::call(double timeout_s, bool cold, uint32_t flags, uint32_t graph_launches,
                       Transfer transfer) {
  static const std::vector<std::pair<uint64_t, uint64_t>> kWhole;
  // Inputs go up whenever they were written since the last upload; outputs and guards always.
  const bool ranged =
      transfer == Transfer::kOutputs && output_ranges_.size() <= protocol::kMaxRanges;
  const auto& ranges = ranged ? output_ranges_ : kWhole;
  RunnerClient& runner = this->runner();
  bool& inputs_on_device = runners_[current_].inputs_on_device;
  if (transfer != Transfer::kNone) {
    CallOutcome up = runner.transfer(protocol::Op::kUpload, timeout_s,
                                     ranged && inputs_on_device ? ranges : kWhole);
    if (up.kind != CallOutcome::Kind::kOk) return up;
    inputs_on_device = true;
  } else {
    inputs_on_device = false;  // the region's inputs are not what the device holds now
  }
  if (cold && !runner.flush_caches(timeout_s))
    return {CallOutcome::Kind::kCrash, 0, 0, "the runner died while evicting the caches"};
  CallOutcome o = runner.call(call_offsets_, scalars_, timeout_s, flags, graph_launches);
  if (o.kind != CallOutcome::Kind::kOk || transfer == Transfer::kNone) return o;
  CallOutcome down = runner.transfer(protocol::Op::kDownload, timeout_s, ranges);
  return down.kind == CallOutcome::Kind::kOk ? o : down;
}

bool Lane::download_all(double timeout_s) {
  for (Runner& r : runners_) {
    if (!r.inputs_on_device) continue;  // its region holds newer inputs than its device copy
    if (r.client->transfer(protocol::Op::kDownload, timeout_s).kind != CallOutcome::Kind::kOk)
      return false;
  }
  return true;
}

std::optional<GuardViolation> Lane::check_guards() const {
  return arena::check_guards(runner().region(), layout_, guard_key_);
}

std::optional<size_t> Lane::changed_input(const std::vector<HostBuffer>& pristine) const {
  for (const Runner& r : runners_) {
    size_t k = 0;
    for (size_t i = 0; i < task_.tensors.size(); ++i) {
      if (task_.tensors[i].role != Role::kInput) continue;
      const HostBuffer& p = pristine.at(k++);
      if (!parallel_equal(r.client->region() + layout_.slots[i].offset, p.data(), p.size()))
        return i;
    }
  }
  return std::nullopt;
}

const void* Lane::tensor(size_t i) const {
  return runner().region() + layout_.slots.at(i).offset;
}

HostBuffer Lane::copy_tensor(size_t i) const {
  const auto* p = static_cast<const std::byte*>(tensor(i));
  return HostBuffer(p, p + layout_.slots[i].bytes);
}

}  // namespace arena
