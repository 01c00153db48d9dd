#include "backends/cuda/stream_order.hpp"

#include <cstdint>

namespace arena::cuda {

void StreamOrder::begin(const void* judge) {
  streams_.clear();
  events_.clear();
  streams_.insert(judge);
}

void StreamOrder::record(const void* event, const void* stream) {
  if (ordered(stream)) {
    events_.insert(event);
  } else {
    events_.erase(event);
  }
}

void StreamOrder::wait(const void* stream, const void* event) {
  if (events_.count(event) != 0 && !is_default(stream)) streams_.insert(stream);
}

void StreamOrder::forget_event(const void* event) { events_.erase(event); }

void StreamOrder::forget_stream(const void* stream) { streams_.erase(stream); }

bool StreamOrder::ordered(const void* stream) const { return !is_default(stream) && streams_.count(stream) != 0; }

bool StreamOrder::is_default(const void* stream) { return reinterpret_cast<std::uintptr_t>(stream) <= 2; }

}  // namespace arena::cuda
