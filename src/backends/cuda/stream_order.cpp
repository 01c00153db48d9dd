#include "backends/cuda/stream_order.hpp"

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
  if (events_.count(event) != 0) streams_.insert(stream);
}

bool StreamOrder::ordered(const void* stream) const { return streams_.count(stream) != 0; }

}  // namespace arena::cuda
