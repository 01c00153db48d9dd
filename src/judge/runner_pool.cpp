#include "judge/runner_pool.hpp"

#include <algorithm>
#include <cstdlib>

namespace arena {
namespace {

bool ended(RunnerClient& runner) { return runner.exited(); }
bool ended(DevicePlane& plane) { return plane.helper_exited(); }

// The first living entry of `waiting` filed under `key`, taken out of it; null when none.
template <typename T>
std::unique_ptr<T> take_out(std::vector<std::pair<std::string, std::unique_ptr<T>>>& waiting, const std::string& key) {
  auto it = std::find_if(waiting.begin(), waiting.end(),
                         [&key](const auto& w) { return w.first == key && !ended(*w.second); });
  if (it == waiting.end()) return nullptr;
  std::unique_ptr<T> taken = std::move(it->second);
  waiting.erase(it);
  return taken;
}

}  // namespace

RunnerPool::RunnerPool() : thread_([this] { work(); }) {}

RunnerPool::~RunnerPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
  // Each waiting RunnerClient and DevicePlane kills its process as the members go.
}

std::string RunnerPool::key_of(const RunnerSpec& spec) {
  std::string key = spec.binary.string();
  auto add = [&key](const std::string& part) {
    key += '\x1f';
    key += part;
  };
  add(std::to_string(spec.flush_bytes));
  add("args");
  for (const auto& a : spec.extra_args) add(a);
  add("wrapper");
  for (const auto& a : spec.wrapper) add(a);
  add(spec.reads_confined_under_wrapper ? "reads-confined" : "-");
  add(spec.thread_cpu_times ? "thread-times" : "-");
  add(std::to_string(spec.start_timeout_s));
  add("cpus");
  for (int c : spec.cpus) add(std::to_string(c));
  add("environment");
  for (const auto& e : spec.environment) add(e);
  const char* no_sandbox = std::getenv("ARENA_NO_SANDBOX");
  add(no_sandbox != nullptr ? no_sandbox : "-");
  return key;
}

void RunnerPool::work() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [this] { return stopping_ || !orders_.empty(); });
    if (stopping_) return;
    Order order = std::move(orders_.front());
    orders_.pop_front();
    working_ = true;
    lock.unlock();
    try {
      carry_out(order);
    } catch (const std::exception&) {
      // No process could be started (fork, socketpair or memfd_create failed): the order is
      // dropped, and take() starts its runner on the judge's thread, where the error is a
      // lane's, reported as such, not the end of the judge.
    }
    lock.lock();
    working_ = false;
    changed_.notify_all();
  }
}

void RunnerPool::carry_out(const Order& order) {
  // Runners and helpers that ended while they waited are dropped first (outside the lock:
  // reaping is a system call per process).
  std::vector<std::unique_ptr<RunnerClient>> gone;
  std::vector<std::unique_ptr<DevicePlane>> gone_planes;
  size_t have = 0;
  {
    std::lock_guard lock(mutex_);
    for (auto& r : runners_)
      if (ended(*r.second)) gone.push_back(std::move(r.second));
    std::erase_if(runners_, [](const auto& r) { return r.second == nullptr; });
    for (auto& p : planes_)
      if (ended(*p.second)) gone_planes.push_back(std::move(p.second));
    std::erase_if(planes_, [](const auto& p) { return p.second == nullptr; });
    if (order.plane) {
      have = static_cast<size_t>(std::count_if(planes_.begin(), planes_.end(),
                                               [&order](const auto& p) { return p.first == order.key; }));
    } else {
      have = static_cast<size_t>(std::count_if(runners_.begin(), runners_.end(),
                                               [&order](const auto& r) { return r.first == order.key; }));
    }
  }
  // Filed under the key of the environment they start in (the sandbox switch is read when a
  // runner starts, here), which take() compares with its own.
  if (order.plane) {
    if (have > 0) return;
    std::string key = key_of(order.spec);
    auto plane = std::make_unique<DevicePlane>(order.spec);
    std::lock_guard lock(mutex_);
    planes_.emplace_back(std::move(key), std::move(plane));
    return;
  }
  for (; have < order.count; ++have) {
    std::string key = key_of(order.spec);
    auto runner = std::make_unique<RunnerClient>(order.spec);
    std::lock_guard lock(mutex_);
    runners_.emplace_back(std::move(key), std::move(runner));
  }
}

void RunnerPool::wait_for_orders(std::unique_lock<std::mutex>& lock) {
  changed_.wait(lock, [this] { return orders_.empty() && !working_; });
}

void RunnerPool::fill(const RunnerSpec& spec, size_t count) {
  Order order{key_of(spec), spec, count, false};
  order.spec.library.clear();
  order.spec.address_space_bytes = 0;
  {
    std::lock_guard lock(mutex_);
    orders_.push_back(std::move(order));
  }
  changed_.notify_all();
}

void RunnerPool::fill_plane(const RunnerSpec& helper) {
  {
    std::lock_guard lock(mutex_);
    orders_.push_back(Order{key_of(helper), helper, 0, true});
  }
  changed_.notify_all();
}

std::unique_ptr<RunnerClient> RunnerPool::take(const RunnerSpec& spec) {
  const std::string key = key_of(spec);
  std::unique_ptr<RunnerClient> runner;
  {
    std::unique_lock lock(mutex_);
    wait_for_orders(lock);
    if ((runner = take_out(runners_, key))) ++lent_ahead_;
  }
  if (!runner) return std::make_unique<RunnerClient>(spec);  // loads at once
  runner->load(spec.library, spec.address_space_bytes);
  return runner;
}

std::unique_ptr<DevicePlane> RunnerPool::take_plane(const RunnerSpec& helper) {
  const std::string key = key_of(helper);
  std::unique_ptr<DevicePlane> plane;
  {
    std::unique_lock lock(mutex_);
    wait_for_orders(lock);
    if ((plane = take_out(planes_, key))) ++lent_ahead_;
  }
  return plane ? std::move(plane) : std::make_unique<DevicePlane>(helper);
}

size_t RunnerPool::waiting() {
  std::unique_lock lock(mutex_);
  wait_for_orders(lock);
  std::erase_if(runners_, [](const auto& r) { return ended(*r.second); });
  std::erase_if(planes_, [](const auto& p) { return ended(*p.second); });
  return runners_.size() + planes_.size();
}

size_t RunnerPool::lent_ahead() const {
  std::lock_guard lock(mutex_);
  return lent_ahead_;
}

}  // namespace arena
