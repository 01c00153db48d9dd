#include "backends/cuda/stream_order.hpp"

#include <cstdint>

namespace arena::cuda {

void StreamOrder::begin(const void* judge) {
  streams_.clear();
  events_.clear();
  streams_.insert(judge);
}

void StreamOrder::record_begin(const void* event) {
  Recording& r = recording_[event];
  if (r.calls > 0) r.overlapped = true;
  ++r.calls;
  events_.erase(event);
}

void StreamOrder::record_end(const void* event, const void* stream, bool succeeded) {
  bool overlapped = false;
  if (auto it = recording_.find(event); it != recording_.end()) {
    overlapped = it->second.overlapped;
    if (--it->second.calls <= 0) recording_.erase(it);
  }
  if (succeeded && !overlapped && ordered(stream)) events_.insert(event);
}

bool StreamOrder::wait_begin(const void* event) const {
  return events_.count(event) != 0 && recording_.count(event) == 0;
}

void StreamOrder::wait_end(const void* stream, const void* event, bool succeeded,
                           bool ordered_at_begin) {
  if (succeeded && ordered_at_begin && wait_begin(event) && !is_default(stream))
    streams_.insert(stream);
}

void StreamOrder::record(const void* event, const void* stream) {
  record_begin(event);
  record_end(event, stream, true);
}

void StreamOrder::wait(const void* stream, const void* event) {
  wait_end(stream, event, true, wait_begin(event));
}

void StreamOrder::forget_event(const void* event) {
  events_.erase(event);
}

void StreamOrder::forget_stream(const void* stream) {
  streams_.erase(stream);
}

bool StreamOrder::ordered(const void* stream) const {
  return !is_default(stream) && streams_.count(stream) != 0;
}

bool StreamOrder::is_default(const void* stream) {
  return reinterpret_cast<std::uintptr_t>(stream) <= 2;
}

}  // namespace arena::cuda
