// Runners started ahead of need (judge/runner_pool.hpp), with the real CPU runner and a real
// compiled solution: a waiting runner loads the library it is given when taken, is lent once,
// is never lent for another spec or after it ended, and the judge takes its lanes' runners from
// a pool it is given and has the next eval's started.
#include "judge/runner_pool.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include "arena_cli.hpp"
#include "backends/cpu/cpu_backend.hpp"
#include "core/error.hpp"
#include "core/subprocess.hpp"
#include "core/task_loader.hpp"
#include "judge/input_generator.hpp"
#include "judge/judge.hpp"
#include "judge/lane.hpp"
#include "judge/shape_selection.hpp"
#include "judge/timing_loop.hpp"
#include "report/verdict_table.hpp"
#include "scoped_env.hpp"

namespace arena::testing {
namespace {

namespace fs = std::filesystem;

// Whether the kernel lists a thread's children (CONFIG_PROC_CHILDREN).
bool children_listed() {
  return fs::exists("/proc/self/task/" + std::to_string(getpid()) + "/children");
}

// The processes this test started that still exist: every thread's children (the pool starts
// its runners from a thread of its own).
size_t live_children() {
  size_t n = 0;
  for (const auto& t : fs::directory_iterator("/proc/self/task")) {
    std::ifstream in(t.path() / "children");
    for (int pid = 0; in >> pid;) ++n;
  }
  return n;
}

// The children left once the judge's teardown is done: its killed runners are reaped off the
// eval's path (judge/teardown.hpp), so they may still be there for a moment when it returns.
size_t children_after_teardown() {
  size_t n = live_children();
  for (int i = 0; i < 500 && n > 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    n = live_children();
  }
  return n;
}

class RunnerPoolTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("arena-runner-pool-" + std::to_string(getpid()));
    fs::remove_all(dir_);
    BackendOptions o;
    o.cache_dir = dir_ / "cache";
    o.runner_dir = ARENA_RUNNER_DIR;
    backend_ = std::make_unique<CpuBackend>(o);
    task_ = load_task(task_copy_.dir());
    starter_ = read_file(fs::path(task_copy_.dir()) / "starter.cpp");
  }
  void TearDown() override { fs::remove_all(dir_); }

  // The lane's runner spec for the compiled starter.
  RunnerSpec starter_spec() {
    CompileResult c = backend_->compile(task_, starter_, task_.libraries);
    EXPECT_TRUE(c.ok) << c.log;
    return lane_runner_spec(*backend_, c.library, int64_t{64} << 20);
  }

  // A short timed eval of the task's visible shapes, its runners from `pool`.
  JudgeOptions timed_from(RunnerPool& pool) {
    JudgeOptions jo;
    jo.seed = 7;
    jo.shapes = select_shapes(task_, "visible", jo.seed);
    jo.stopping.max_seconds = 0.05;
    jo.runners = &pool;
    return jo;
  }

  TaskCopy task_copy_;
  fs::path dir_;
  std::unique_ptr<Backend> backend_;
  Task task_;
  std::string starter_;
};

TEST_F(RunnerPoolTest, AWaitingRunnerLoadsTheLibraryItIsGivenWhenTaken) {
  RunnerSpec spec = starter_spec();
  RunnerPool pool;
  pool.fill(spec, 2);
  EXPECT_EQ(pool.waiting(), 2u);
  std::unique_ptr<RunnerClient> runner = pool.take(spec);
  EXPECT_EQ(pool.lent_ahead(), 1u);
  EXPECT_EQ(pool.waiting(), 1u);
  ASSERT_TRUE(runner->wait_ready()) << runner->start_error();
  // It runs the solution: one call on a small region (n = 0 elements of vector_add).
  runner->map_region(4096);
  CallOutcome o = runner->call({0, 0, 0}, {protocol::ScalarValue{0, 0}}, 10);
  EXPECT_EQ(o.kind, CallOutcome::Kind::kOk) << o.message;
  // A runner that loaded a solution holds it for life.
  EXPECT_THROW(runner->load(spec.library, 0), InternalError);
  // Filling again tops the pool up to the count, no more.
  pool.fill(spec, 2);
  EXPECT_EQ(pool.waiting(), 2u);
}

TEST_F(RunnerPoolTest, ALibraryThatCannotLoadFailsTheStartWithTheRunnersWords) {
  RunnerSpec spec = starter_spec();
  RunnerPool pool;
  pool.fill(spec, 1);
  spec.library = dir_ / "no-such-solution.so";
  std::unique_ptr<RunnerClient> runner = pool.take(spec);
  EXPECT_EQ(pool.lent_ahead(), 1u);
  EXPECT_FALSE(runner->wait_ready());
  EXPECT_NE(runner->start_error().find("cannot load the solution"), std::string::npos)
      << runner->start_error();
}

TEST_F(RunnerPoolTest, ARunnerIsNotLentForAnotherSpecNorAfterItEnded) {
  RunnerSpec spec = starter_spec();
  RunnerPool pool;
  pool.fill(spec, 1);
  // Another spec (the timer check's thread times) or another sandbox switch: a fresh runner.
  RunnerSpec other = spec;
  other.thread_cpu_times = !spec.thread_cpu_times;
  std::unique_ptr<RunnerClient> fresh = pool.take(other);
  EXPECT_EQ(pool.lent_ahead(), 0u);
  EXPECT_TRUE(fresh->wait_ready()) << fresh->start_error();
  std::unique_ptr<RunnerClient> unsandboxed;
  {
    testing::ScopedEnv off("ARENA_NO_SANDBOX", "1");
    unsandboxed = pool.take(spec);
  }
  EXPECT_EQ(pool.lent_ahead(), 0u);
  ASSERT_TRUE(unsandboxed->wait_ready()) << unsandboxed->start_error();
  EXPECT_FALSE(unsandboxed->sandbox().on);
  EXPECT_EQ(pool.waiting(), 1u);

  // A "runner" that ends at once (true(1) takes no arguments): it is dropped, not lent.
  RunnerSpec ends = spec;
  ends.binary = "/bin/true";
  pool.fill(ends, 1);
  for (int i = 0; i < 200 && pool.waiting() > 1; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(pool.waiting(), 1u);  // the starter's runner alone
  std::unique_ptr<RunnerClient> instead = pool.take(ends);
  EXPECT_EQ(pool.lent_ahead(), 0u);
  EXPECT_FALSE(instead->wait_ready());
}

// RunnerSpec::cpus (the CUDA backend's ARENA_RUNNER_CPUS): the runner's process may run on
// those CPUs alone, a waiting runner is not lent for a spec with other CPUs, and CPUs the
// judge may not use fail the start with a message that names them.
TEST_F(RunnerPoolTest, ARunnerRunsOnTheCpusItsSpecNames) {
  cpu_set_t mine;
  ASSERT_EQ(sched_getaffinity(0, sizeof mine, &mine), 0);
  int cpu = 0;
  while (cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &mine)) ++cpu;
  ASSERT_LT(cpu, CPU_SETSIZE);
  RunnerSpec spec = starter_spec();
  spec.cpus = {cpu};
  RunnerClient runner(spec);
  ASSERT_TRUE(runner.wait_ready()) << runner.start_error();
  std::vector<int> threads = runner.thread_ids();
  ASSERT_FALSE(threads.empty());
  std::ifstream status("/proc/" + std::to_string(threads.front()) + "/status");
  std::string line, allowed;
  while (std::getline(status, line))
    if (line.rfind("Cpus_allowed_list:", 0) == 0)
      allowed = line.substr(line.find_first_not_of(" \t", 18));
  EXPECT_EQ(allowed, std::to_string(cpu));

  RunnerPool pool;
  pool.fill(spec, 1);
  RunnerSpec anywhere = spec;
  anywhere.cpus.clear();
  std::unique_ptr<RunnerClient> other = pool.take(anywhere);
  EXPECT_EQ(pool.lent_ahead(), 0u);
  EXPECT_TRUE(other->wait_ready()) << other->start_error();

  RunnerSpec none = spec;
  none.cpus = {1023};  // no machine this runs on has it
  RunnerClient refused(none);
  EXPECT_FALSE(refused.wait_ready());
  EXPECT_NE(refused.start_error().find("CPUs 1023 (ARENA_RUNNER_CPUS)"), std::string::npos)
      << refused.start_error();
}

// The entries of the runner's environment (/proc/<pid>/environ) that start with `name=`.
std::vector<std::string> environment_entries(const RunnerClient& runner, const std::string& name) {
  std::vector<std::string> found;
  std::vector<int> threads = runner.thread_ids();
  if (threads.empty()) return found;
  std::ifstream environ_file("/proc/" + std::to_string(threads.front()) + "/environ", std::ios::binary);
  std::string entry;
  while (std::getline(environ_file, entry, '\0'))
    if (entry.rfind(name + "=", 0) == 0) found.push_back(entry);
  return found;
}

// RunnerSpec::environment (what the CUDA backend gives the reference's runner and the device
// helper: one hardware queue): set in the runner's environment over the judge's own value, and
// a waiting runner is not lent for a spec with another environment.
TEST_F(RunnerPoolTest, ARunnerStartsWithTheEnvironmentItsSpecAdds) {
  ScopedEnv judges("ARENA_TEST_ENTRY", "the judge's");
  RunnerSpec spec = starter_spec();
  RunnerSpec added = spec;
  added.environment = {"ARENA_TEST_ENTRY=the runner's", "ARENA_TEST_OTHER=1"};
  RunnerClient runner(added);
  ASSERT_TRUE(runner.wait_ready()) << runner.start_error();
  EXPECT_EQ(environment_entries(runner, "ARENA_TEST_ENTRY"), std::vector<std::string>{"ARENA_TEST_ENTRY=the runner's"});
  EXPECT_EQ(environment_entries(runner, "ARENA_TEST_OTHER"), std::vector<std::string>{"ARENA_TEST_OTHER=1"});
  RunnerClient plain(spec);
  ASSERT_TRUE(plain.wait_ready()) << plain.start_error();
  EXPECT_EQ(environment_entries(plain, "ARENA_TEST_ENTRY"), std::vector<std::string>{"ARENA_TEST_ENTRY=the judge's"});

  EXPECT_FALSE(RunnerPool::interchangeable(spec, added));
  RunnerPool pool;
  pool.fill(spec, 1);
  std::unique_ptr<RunnerClient> other = pool.take(added);
  EXPECT_EQ(pool.lent_ahead(), 0u);
  ASSERT_TRUE(other->wait_ready()) << other->start_error();
  EXPECT_EQ(environment_entries(*other, "ARENA_TEST_OTHER"), std::vector<std::string>{"ARENA_TEST_OTHER=1"});
}

// A backend whose trusted runner differs from its plain one (as CUDA's does).
class TrustedEnvBackend : public CpuBackend {
 public:
  using CpuBackend::CpuBackend;
  RunnerSpec trusted_runner(RunnerSpec plain) const override {
    plain.environment.emplace_back("ARENA_TEST_TRUSTED=1");
    return plain;
  }
};

// The reference's lane runs in the backend's trusted runner, the timed lanes in plain ones, and
// the judge has the pool start each kind ahead of need: every lane's runner had waited there.
TEST_F(RunnerPoolTest, TheReferenceRunsInTheBackendsTrustedRunnerStartedAheadTheTimedSidesInPlainOnes) {
  BackendOptions o;
  o.cache_dir = dir_ / "cache";
  o.runner_dir = ARENA_RUNNER_DIR;
  TrustedEnvBackend backend(o);
  RunnerPool pool;
  JudgeOptions jo = timed_from(pool);
  Verdict v = judge_solution(task_, backend, "starter.cpp", starter_, jo);
  ASSERT_EQ(v.exit_code(), 0) << v.internal_error;
  EXPECT_EQ(pool.lent_ahead(), 3u);  // reference, candidate, baseline: none started late
  EXPECT_EQ(pool.waiting(), 3u);     // the next eval's: one trusted, two plain
  const fs::path library = starter_spec().library;
  std::unique_ptr<RunnerClient> reference = pool.take(lane_runner_spec(backend, library, 0, /*trusted=*/true));
  std::unique_ptr<RunnerClient> timed = pool.take(lane_runner_spec(backend, library, 0));
  EXPECT_EQ(pool.lent_ahead(), 5u);
  ASSERT_TRUE(reference->wait_ready()) << reference->start_error();
  ASSERT_TRUE(timed->wait_ready()) << timed->start_error();
  EXPECT_EQ(environment_entries(*reference, "ARENA_TEST_TRUSTED"), std::vector<std::string>{"ARENA_TEST_TRUSTED=1"});
  EXPECT_TRUE(environment_entries(*timed, "ARENA_TEST_TRUSTED").empty());
}

// The runner's descriptors are 3 (socket) and 4 (region) whatever numbers the judge's copies
// have: with 0, 3 and 4 free in the judge, the socket pair takes 0 and 3 and the region 4, each
// already at (or the source of) a target number. Moving them onto themselves kept their
// close-on-exec flag, and the runner failed its first map ("mmap: Bad file descriptor"): what
// the pool's thread opening and closing descriptors beside the judge's made happen.
TEST_F(RunnerPoolTest, ARunnerStartsWhicheverDescriptorNumbersTheJudgeHasFree) {
  RunnerSpec spec = starter_spec();
  int saved[5];
  for (int fd : {0, 3, 4}) {
    saved[fd] = fcntl(fd, F_DUPFD_CLOEXEC, 100);
    close(fd);
  }
  std::string error;
  CallOutcome o;
  {
    RunnerClient runner(spec);
    if (runner.wait_ready()) {
      runner.map_region(4096);
      o = runner.call({0, 0, 0}, {protocol::ScalarValue{0, 0}}, 10);
    } else {
      error = runner.start_error();
    }
  }
  for (int fd : {0, 3, 4}) {
    if (saved[fd] >= 0) {
      dup2(saved[fd], fd);
      close(saved[fd]);
    }
  }
  EXPECT_EQ(error, "");
  EXPECT_EQ(o.kind, CallOutcome::Kind::kOk) << o.message;
}

// A runner dies with the thread that started it (PR_SET_PDEATHSIG): the pool starts them from
// its own, so runners ordered by a thread that has ended since (the tool server's, between an
// episode's last round and its final judging) still wait.
TEST_F(RunnerPoolTest, RunnersOrderedByAThreadThatEndedStillWait) {
  RunnerSpec spec = starter_spec();
  RunnerPool pool;
  std::thread([&] { pool.fill(spec, 2); }).join();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_EQ(pool.waiting(), 2u);
  std::unique_ptr<RunnerClient> runner = pool.take(spec);
  EXPECT_EQ(pool.lent_ahead(), 1u);
  EXPECT_TRUE(runner->wait_ready()) << runner->start_error();
}

// The start limit counts from the load: a runner that waited longer than it is not late.
TEST_F(RunnerPoolTest, TheStartLimitCountsFromTheLoad) {
  RunnerSpec spec = starter_spec();
  spec.start_timeout_s = 1;
  RunnerPool pool;
  pool.fill(spec, 1);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  std::unique_ptr<RunnerClient> runner = pool.take(spec);
  EXPECT_EQ(pool.lent_ahead(), 1u);
  EXPECT_TRUE(runner->wait_ready()) << runner->start_error();
}

// A wrong candidate judged with runners from a pool is wrong: each lane's runner holds the
// library the lane gave it.
TEST_F(RunnerPoolTest, AWrongCandidateJudgedFromThePoolIsWrong) {
  RunnerPool pool;
  JudgeOptions jo;
  jo.seed = 7;
  jo.shapes = select_shapes(task_, "visible", jo.seed);
  jo.timing = false;
  jo.runners = &pool;
  Verdict v =
      judge_solution(task_, *backend_, "wrong_tail.cpp", read_file(broken("wrong_tail")), jo);
  EXPECT_EQ(pool.lent_ahead(), 2u);
  ASSERT_FALSE(v.shapes.empty()) << v.internal_error;
  for (const auto& s : v.shapes) {
    EXPECT_FALSE(s.correct);
    EXPECT_EQ(s.failure, FailureClass::kWrongValues) << s.message;
  }
}

TEST_F(RunnerPoolTest, ALibraryPathTooLongForTheProtocolIsAnInputError) {
  RunnerSpec spec = starter_spec();
  RunnerPool pool;
  pool.fill(spec, 1);
  spec.library = "/" + std::string(protocol::kMaxPath, 'x');
  EXPECT_THROW(pool.take(spec), InputError);
}

TEST_F(RunnerPoolTest, TheJudgeTakesItsLanesRunnersFromThePoolAndStartsTheNextEvals) {
  RunnerPool pool;
  JudgeOptions jo = timed_from(pool);
  Verdict first = judge_solution(task_, *backend_, "starter.cpp", starter_, jo);
  ASSERT_EQ(first.exit_code(), 0) << first.internal_error;
  // Reference, candidate and baseline: started before the compile, taken by the lanes.
  EXPECT_EQ(pool.lent_ahead(), 3u);
  EXPECT_EQ(pool.waiting(), 3u);  // the next eval's
  EXPECT_TRUE(first.seconds.count("runner_start")) << "the seconds spent waiting for runners";

  jo.start_next_runners = false;  // the last eval
  Verdict second = judge_solution(task_, *backend_, "starter.cpp", starter_, jo);
  ASSERT_EQ(second.exit_code(), 0) << second.internal_error;
  EXPECT_EQ(pool.lent_ahead(), 6u);
  EXPECT_EQ(pool.waiting(), 0u);
  ASSERT_EQ(first.shapes.size(), second.shapes.size());
  for (size_t i = 0; i < first.shapes.size(); ++i) EXPECT_TRUE(second.shapes[i].correct);
}

TEST_F(RunnerPoolTest, TheJudgeSpreadsEachTimedSideOverItsTimedRunners) {
  ScopedEnv two("ARENA_TIMED_RUNNERS", "2");
  RunnerPool pool;
  JudgeOptions jo = timed_from(pool);
  jo.start_next_runners = false;
  Verdict v = judge_solution(task_, *backend_, "starter.cpp", starter_, jo);
  ASSERT_EQ(v.exit_code(), 0) << v.internal_error;
  // The reference's, and two each for the candidate and the baseline: all started ahead.
  EXPECT_EQ(pool.lent_ahead(), 5u);
  ASSERT_FALSE(v.shapes.empty());
  for (const auto& s : v.shapes) {
    ASSERT_TRUE(s.timing) << s.shape.label();
    EXPECT_EQ(s.timing->runners, 2);
    EXPECT_EQ(s.timing->baseline_runners, 2);
    // Both runners of each side were timed, a pair each in turn.
    ASSERT_EQ(s.timing->candidate_runner_medians_ns.size(), 2u);
    ASSERT_EQ(s.timing->baseline_runner_medians_ns.size(), 2u);
    for (double m : s.timing->candidate_runner_medians_ns) EXPECT_GT(m, 0) << s.shape.label();
    for (double m : s.timing->baseline_runner_medians_ns) EXPECT_GT(m, 0) << s.shape.label();
    // The median of the two runners' pooled samples lies between their medians.
    const auto& m = s.timing->candidate_runner_medians_ns;
    EXPECT_GE(s.timing->candidate.median, std::min(m[0], m[1]));
    EXPECT_LE(s.timing->candidate.median, std::max(m[0], m[1]));
  }
}

TEST_F(RunnerPoolTest, ASideWhoseSecondRunnerCannotStartIsTimedOnTheOtherAndTheVerdictSaysWhy) {
  // A solution that loads in one process at a time only (as one that takes most of the device's
  // memory at load would): whichever of the candidate's two runners loads it second dies.
  ScopedEnv two("ARENA_TIMED_RUNNERS", "2");
  ScopedEnv off("ARENA_NO_SANDBOX", "1");  // the solution's file is outside what a runner may open
  const fs::path marker = dir_ / "loaded-once";
  fs::create_directories(dir_);
  const std::string once = R"(#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>
#include <cstdlib>
namespace {
struct LoadsOnce {
  LoadsOnce() {
    int fd = open(")" + marker.string() +
                           R"(", O_RDWR | O_CREAT, 0600);
    if (fd < 0 || flock(fd, LOCK_EX) != 0) abort();
    char c = 0;
    if (pread(fd, &c, 1, 0) == 1) abort();  // loaded before, in another process
    if (pwrite(fd, "1", 1, 0) != 1) abort();
    close(fd);
  }
} loads_once;
}  // namespace
)";
  RunnerPool pool;
  JudgeOptions jo = timed_from(pool);
  jo.start_next_runners = false;
  Verdict v = judge_solution(task_, *backend_, "once.cpp", once + starter_, jo);
  ASSERT_EQ(v.exit_code(), 0) << v.internal_error;
  ASSERT_FALSE(v.shapes.empty());
  for (const auto& s : v.shapes) {
    ASSERT_TRUE(s.timing) << s.shape.label();
    EXPECT_EQ(s.timing->runners, 1) << s.shape.label();
    EXPECT_EQ(s.timing->baseline_runners, 2) << s.shape.label();
    EXPECT_EQ(s.timing->candidate_runner_medians_ns.size(), 1u);
    EXPECT_NE(s.timing->fewer_runners_because.find("candidate: runner "), std::string::npos)
        << s.timing->fewer_runners_because;
    EXPECT_NE(s.timing->fewer_runners_because.find("of 2 could not start"), std::string::npos)
        << s.timing->fewer_runners_because;
  }
  // Where no runner of a side can start, the shape fails as before.
  std::string twice = once;
  twice.replace(twice.find("if (pread"), 0, "abort();\n    ");
  Verdict never = judge_solution(task_, *backend_, "never.cpp", twice + starter_, jo);
  ASSERT_FALSE(never.shapes.empty());
  EXPECT_FALSE(never.shapes[0].correct);
  EXPECT_EQ(never.shapes[0].failure, FailureClass::kCrash) << never.shapes[0].message;
}

TEST_F(RunnerPoolTest,
       ARunnerWhoseWarmUpRunsOutOfMemoryWhereTheFirstDidNotIsDroppedAndTheVerdictSaysWhy) {
  // A solution that keeps memory from its calls, with room for one process's: whichever of the
  // candidate's runners calls it second runs out of memory (the runner's own out-of-memory exit,
  // the one a failed operator new takes).
  ScopedEnv two("ARENA_TIMED_RUNNERS", "2");
  ScopedEnv off("ARENA_NO_SANDBOX", "1");  // the solution's file is outside what a runner may open
  const fs::path marker = dir_ / "called-once";
  fs::create_directories(dir_);
  const std::string keeps = R"(#include "arena_signature.h"
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>
#include <cstdlib>
#include <new>
namespace {
bool g_called = false;
void claim_the_memory() {
  int fd = open(")" + marker.string() +
                            R"(", O_RDWR | O_CREAT, 0600);
  if (fd < 0 || flock(fd, LOCK_EX) != 0) abort();
  char c = 0;
  const bool taken = pread(fd, &c, 1, 0) == 1;  // by another process's call
  MARK
  close(fd);
  if (taken) {
    if (std::new_handler h = std::get_new_handler()) h();
    abort();
  }
}
}  // namespace
extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n) {
  if (!g_called) {
    g_called = true;
    claim_the_memory();
  }
  for (int64_t i = 0; i < n; ++i) out[i] = a[i] + b[i];
}
)";
  std::string once = keeps;
  once.replace(once.find("MARK"), 4, R"(if (!taken && pwrite(fd, "1", 1, 0) != 1) abort();)");
  RunnerPool pool;
  JudgeOptions jo = timed_from(pool);
  jo.start_next_runners = false;
  Verdict v = judge_solution(task_, *backend_, "keeps.cpp", once, jo);
  ASSERT_EQ(v.exit_code(), 0) << v.internal_error;
  ASSERT_FALSE(v.shapes.empty());
  for (const auto& s : v.shapes) {
    ASSERT_TRUE(s.correct) << s.shape.label() << ": " << s.message;
    ASSERT_TRUE(s.timing) << s.shape.label();
    EXPECT_EQ(s.timing->runners, 1) << s.shape.label();
    EXPECT_EQ(s.timing->baseline_runners, 2) << s.shape.label();
    EXPECT_EQ(s.timing->candidate_runner_medians_ns.size(), 1u);
    EXPECT_NE(s.timing->fewer_runners_because.find(
                  "candidate: runner 2 of 2 ran out of memory at its warm-up"),
              std::string::npos)
        << s.timing->fewer_runners_because;
    EXPECT_EQ(s.timing->fewer_runners_because.find("baseline"), std::string::npos)
        << s.timing->fewer_runners_because;
  }
  // The human verdict says it once, from the first shape on.
  const std::string table = render_verdict(v);
  const std::string said =
      "timed on fewer runners than asked (candidate 1, baseline 2): candidate: runner 2 of 2 ran "
      "out of memory";
  EXPECT_NE(table.find("note from " + v.shapes[0].shape.label() + " on: " + said),
            std::string::npos)
      << table;
  EXPECT_EQ(table.find(said), table.rfind(said)) << table;
  // The first runner running out of memory at its warm-up (here its first call: the timing
  // loop alone, no checked calls before it) is the solution's failure: the loop ends with it,
  // `oom`, and no runner is dropped.
  fs::remove(marker);
  std::string always = keeps;
  always.replace(always.find("MARK"), 4, "");
  always.replace(always.find("const bool taken = "), 19, "const bool taken = true || ");
  CompileResult c = backend_->compile(task_, always, task_.libraries);
  ASSERT_TRUE(c.ok) << c.log;
  Lane lane(*backend_, task_, c.library, int64_t{64} << 20);
  lane.use_runners(2);
  ASSERT_EQ(lane.prepare(Shape{{{"n", 1000}}}), "");
  lane.write_inputs(generate_inputs(task_, Shape{{{"n", 1000}}}, 7));
  TimingLoopOptions lo;
  lo.cold_cache = false;
  lo.rule.max_seconds = 0.05;
  TimingLoopResult r = run_timing_loop(lane, nullptr, lo, [] { return std::string(); });
  ASSERT_TRUE(r.candidate_failure);
  EXPECT_EQ(r.candidate_failure->kind, CallOutcome::Kind::kOom) << r.candidate_failure->message;
  EXPECT_EQ(lane.runners(), 2);
  EXPECT_EQ(lane.fewer_runners_because(), "");
}

TEST_F(RunnerPoolTest, ALaneWithTwoRunnersHoldsItsSolutionInTwoProcessesEachWithItsOwnRegion) {
  RunnerSpec spec = starter_spec();
  Lane lane(*backend_, task_, spec.library, int64_t{64} << 20);
  lane.use_runners(2);
  Shape shape{{{"n", 1000}}};
  ASSERT_EQ(lane.prepare(shape), "");
  ASSERT_EQ(lane.runners(), 2);
  EXPECT_EQ(lane.runner_index(), 0);  // the checked calls' runner
  std::vector<int> first = lane.runner_thread_ids();
  lane.use_runner(1);
  std::vector<int> second = lane.runner_thread_ids();
  ASSERT_FALSE(first.empty());
  ASSERT_FALSE(second.empty());
  for (int tid : second)
    EXPECT_EQ(std::count(first.begin(), first.end(), tid), 0) << "thread " << tid << " in both";

  // Inputs and guards go to both regions; a call writes the current runner's outputs only.
  std::vector<HostBuffer> inputs;
  for (float value : {1.0f, 2.0f}) {
    HostBuffer b(1000 * sizeof(float));
    for (size_t i = 0; i < 1000; ++i)
      std::memcpy(b.data() + i * sizeof(float), &value, sizeof(float));
    inputs.push_back(b);
  }
  lane.write_inputs(inputs);
  lane.arm_guards(42);
  for (int r : {0, 1}) {
    lane.use_runner(r);
    EXPECT_FALSE(lane.changed_input(inputs)) << "runner " << r;
    EXPECT_FALSE(lane.check_guards()) << "runner " << r;
    lane.poison_outputs(7 + static_cast<uint64_t>(r));
  }
  lane.use_runner(1);
  ASSERT_EQ(lane.call(10).kind, CallOutcome::Kind::kOk);
  float got = 0;
  std::memcpy(&got, static_cast<const std::byte*>(lane.tensor(2)) + 999 * sizeof(float),
              sizeof(float));
  EXPECT_EQ(got, 3.0f) << "runner 1's output";
  lane.use_runner(0);
  std::memcpy(&got, static_cast<const std::byte*>(lane.tensor(2)) + 999 * sizeof(float),
              sizeof(float));
  EXPECT_NE(got, 3.0f) << "runner 0's output is still the poison";

  // An input changed in the second runner's region is found whichever runner is current.
  lane.use_runner(1);
  std::memset(const_cast<void*>(lane.tensor(1)), 0, sizeof(float));
  lane.use_runner(0);
  EXPECT_EQ(lane.changed_input(inputs), std::optional<size_t>(1));
  EXPECT_THROW(lane.use_runner(2), InternalError);
}

TEST_F(RunnerPoolTest, AJudgeWithoutAPoolStartsItsOwnAheadAndLeavesNoneBehind) {
  if (!children_listed())
    GTEST_SKIP() << "SKIPPED: this kernel does not list a thread's children in /proc";
  JudgeOptions jo;
  jo.seed = 7;
  jo.shapes = select_shapes(task_, "visible", jo.seed);
  jo.timing = false;
  ASSERT_EQ(live_children(), 0u);
  Verdict v = judge_solution(task_, *backend_, "starter.cpp", starter_, jo);
  EXPECT_EQ(v.exit_code(), 0) << v.internal_error;
  EXPECT_EQ(children_after_teardown(), 0u);
  // A compile error: the runners started beside the compile are stopped with the judge.
  Verdict bad = judge_solution(task_, *backend_, "broken.cpp", "this is not C++", jo);
  EXPECT_FALSE(bad.compile.ok);
  EXPECT_EQ(children_after_teardown(), 0u);
}

}  // namespace
}  // namespace arena::testing
