// Runners started ahead of need. A runner comes up without a solution (its device context,
// stream and flush buffer first) and loads the library its lane gives it later
// (protocol::Op::kLoad), so the slow part of its start overlaps the compile, or the time an
// agent spends between two rounds. The device helper (judge/device_plane.hpp) likewise.
//
// A runner is lent once: after it has loaded a solution it belongs to that lane until it dies
// (one untrusted solution per process, ever). The pool only hands out runners that have loaded
// nothing, started from exactly the spec asked for (the sandbox switch included); one that
// ended while it waited is dropped, and take() starts a fresh one when none waits.
//
// The pool's own thread starts the waiting ones: a runner dies with the thread that started it
// (PR_SET_PDEATHSIG), so runners that wait across evals must not be started by a thread that
// ends before they are used (the tool server's). It also keeps the fork off the caller's path.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "judge/device_plane.hpp"
#include "judge/runner_client.hpp"

namespace arena {

class RunnerPool {
 public:
  RunnerPool();
  // Kills the runners and helpers that still wait.
  ~RunnerPool();
  RunnerPool(const RunnerPool&) = delete;
  RunnerPool& operator=(const RunnerPool&) = delete;

  // Has runners of `spec` (its library and address space aside) started until `count` of them
  // wait. Returns at once: the pool's thread starts them, and they come up on their own.
  void fill(const RunnerSpec& spec, size_t count);
  // A runner of `spec` that has been told to load spec.library with spec.address_space_bytes:
  // one that waited here, or a fresh one. Not yet ready: RunnerClient::wait_ready() says.
  std::unique_ptr<RunnerClient> take(const RunnerSpec& spec);

  // The same for the device helper: at most one waits per spec.
  void fill_plane(const RunnerSpec& helper);
  std::unique_ptr<DevicePlane> take_plane(const RunnerSpec& helper);

  // How many runners (helpers included) wait once the orders given so far are carried out,
  // those that ended dropped; and how many take() and take_plane() gave out that had waited here.
  size_t waiting();
  size_t lent_ahead() const;
  // Whether a runner started from `a` may be lent for `b` (their library and address space aside).
  static bool interchangeable(const RunnerSpec& a, const RunnerSpec& b) { return key_of(a) == key_of(b); }

 private:
  // What makes two runners interchangeable before they load: their command line, how the
  // judge reads them, and the sandbox switch of the environment when they started.
  static std::string key_of(const RunnerSpec& spec);

  struct Order {
    std::string key;
    RunnerSpec spec;
    size_t count = 0;  // runners; 0 for a device helper
    bool plane = false;
  };
  void work();  // the pool's thread: carries out the orders
  void carry_out(const Order& order);
  // With the mutex held: until every order given so far is carried out.
  void wait_for_orders(std::unique_lock<std::mutex>& lock);

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Order> orders_;
  bool working_ = false;  // an order is being carried out
  bool stopping_ = false;
  std::vector<std::pair<std::string, std::unique_ptr<RunnerClient>>> runners_;
  std::vector<std::pair<std::string, std::unique_ptr<DevicePlane>>> planes_;
  size_t lent_ahead_ = 0;
  std::thread thread_;  // last: started once the rest is there
};

}  // namespace arena
