// The runner's sandbox and the judge's thread count, on the CPU: solutions that run programs,
// open network sockets or create files are stopped by the runner's seccomp profile
// (sandbox_violation, naming the call); one that leaves a thread running after its timed calls
// is flagged host_thread; honest solutions (plain, OpenMP, threads joined in the call) pass. The
// runner's seal of its relocation slots and the profile's refusal of executable writable code.

#include <gtest/gtest.h>
#include <linux/landlock.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "scoped_env.hpp"
#include "arena_cli.hpp"

namespace arena {
namespace {

using testing::run_arena;
using testing::source_path;

std::string redteam(const std::string& name) { return source_path("tests/redteam/cpu/" + name + ".cpp"); }

testing::ArenaRun eval(const std::string& solution, std::vector<std::string> more) {
  std::vector<std::string> args = {"-q", "eval", "--task", "cpu/vector_add_f32", "--solution", solution,
                                   "--seed", "5"};
  args.insert(args.end(), more.begin(), more.end());
  return run_arena(args, true);
}

bool has_flag(const nlohmann::json& verdict, const std::string& name) {
  for (const auto& f : verdict["flags"])
    if (f["name"] == name) return true;
  return false;
}

struct SandboxCase {
  const char* file;
  const char* message_has;  // in the shape's message: the call, or how it was made
};

void PrintTo(const SandboxCase& c, std::ostream* os) { *os << c.file; }

class SandboxViolation : public ::testing::TestWithParam<SandboxCase> {};

TEST_P(SandboxViolation, IsCaughtAndNamed) {
  const SandboxCase& c = GetParam();
  auto r = eval(redteam(c.file), {"--no-timing", "--shape", "n=100003"});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  ASSERT_TRUE(r.verdict.is_object()) << r.output;
  EXPECT_EQ(r.verdict["summary"]["failure_class"], "sandbox_violation") << r.output;
  const std::string message = r.verdict["shapes"][0]["message"];
  EXPECT_NE(message.find("forbidden system call"), std::string::npos) << message;
  EXPECT_NE(message.find(c.message_has), std::string::npos) << message;
  EXPECT_EQ(r.verdict["sandbox"]["seccomp"], true) << r.verdict["sandbox"];
}

INSTANTIATE_TEST_SUITE_P(Cpu, SandboxViolation,
                         ::testing::Values(SandboxCase{"exec_program", "execve"},
                                           // system() blocks SIGSYS around its clone: unnamed
                                           SandboxCase{"run_program", "SIGSYS blocked"},
                                           SandboxCase{"exec_at_load", "while the solution was loaded"},
                                           SandboxCase{"tcp_socket", "socket"},
                                           SandboxCase{"create_file", "openat"}),
                         [](const auto& info) { return std::string(info.param.file); });

TEST(Sandbox, TheHonestStarterPassesUnderIt) {
  auto r = eval(source_path("tasks/cpu/vector_add_f32/starter.cpp"), {"--shape", "n=100003", "--max-time", "0.2"});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.verdict["sandbox"]["seccomp"], true) << r.verdict["sandbox"];
  EXPECT_TRUE(r.verdict["sandbox"]["why_off"].is_null());
}

bool kernel_has_landlock() {
  return syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION) >= 1;
}

// The runner reads only the system trees and its own library: the task's reference, its
// held-out rules and the judge's environment are out of reach (the solution writes zeros if it
// can read any of them).
TEST(Sandbox, TheRunnerCannotReadTheTaskFiles) {
  if (!kernel_has_landlock()) GTEST_SKIP() << "this kernel has no Landlock: file reads are not confined here";
  auto r = eval(redteam("read_task_files"), {"--no-timing", "--shape", "n=100003"});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.verdict["sandbox"]["reads_confined"], true) << r.verdict["sandbox"];
  EXPECT_TRUE(r.verdict["sandbox"]["reads_why_open"].is_null()) << r.verdict["sandbox"];
  // Without the sandbox the same solution reads them, and its zeros are wrong.
  testing::ArenaRun open;
  {
    testing::ScopedEnv off("ARENA_NO_SANDBOX", "1");
    open = eval(redteam("read_task_files"), {"--no-timing", "--shape", "n=100003"});
  }
  EXPECT_EQ(open.exit_code, 1) << open.output;
  EXPECT_EQ(open.verdict["summary"]["failure_class"], "wrong_values") << open.output;
  EXPECT_EQ(open.verdict["sandbox"]["reads_confined"], false);
}

TEST(Sandbox, ArenaNoSandboxTurnsItOffAndSaysSo) {
  testing::ScopedEnv off("ARENA_NO_SANDBOX", "1");
  auto r = eval(redteam("create_file"), {"--no-timing", "--shape", "n=100003"});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(r.verdict["summary"]["failure_class"].is_null()) << r.output;
  EXPECT_EQ(r.verdict["sandbox"]["seccomp"], false);
  EXPECT_EQ(r.verdict["sandbox"]["why_off"], "ARENA_NO_SANDBOX=1");
}

std::string timer_mismatch_message(const nlohmann::json& verdict) {
  std::string all;
  for (const auto& f : verdict["flags"])
    if (f["name"] == "timer_mismatch") all += f["reason"].get<std::string>() + "\n";
  return all;
}

// The runner seals its relocation slots at start (src/backends/relocation_seal.hpp): one the
// solution pointed elsewhere is flagged though the clock it leads to tells the truth (nothing
// in the times could show it).
TEST(TimerSeal, ARewrittenRelocationSlotIsFlaggedThoughItsClockTellsTheTruth) {
  auto r = eval(redteam("rewired_clock"), {"--shape", "n=100003", "--max-time", "0.2"});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  ASSERT_TRUE(r.verdict.is_object()) << r.output;
  EXPECT_TRUE(r.verdict["summary"]["failure_class"].is_null()) << r.output;
  const std::string said = timer_mismatch_message(r.verdict);
  EXPECT_NE(said.find("relocation slot for clock_gettime was rewritten"), std::string::npos) << r.output;
  EXPECT_NE(said.find("solution.so"), std::string::npos) << said;  // where it points now
  // The honest starter, timed through the same runner, is not.
  auto honest = eval(source_path("tasks/cpu/vector_add_f32/starter.cpp"), {"--shape", "n=100003", "--max-time", "0.2"});
  EXPECT_EQ(honest.exit_code, 0) << honest.output;
  EXPECT_EQ(timer_mismatch_message(honest.verdict), "") << honest.output;
}

// The C library's clock reaches the vDSO through a pointer in the loader's read-only-after-
// relocation data, which mprotect can make writable under the sandbox (no PROT_EXEC asked):
// pointed at a function that tells the truth, only the seal's copy of that data sees it.
TEST(TimerSeal, TheLoadersPointerToTheVdsoClockRewiredIsFlagged) {
  auto r = eval(redteam("rewired_vdso_clock"), {"--shape", "n=100003", "--max-time", "0.2"});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  ASSERT_TRUE(r.verdict.is_object()) << r.output;
  EXPECT_TRUE(r.verdict["summary"]["failure_class"].is_null()) << r.output;
  const std::string said = timer_mismatch_message(r.verdict);
  EXPECT_NE(said.find("the read-only data of ld-"), std::string::npos) << r.output;
  EXPECT_NE(said.find("(solution.so)"), std::string::npos) << said;  // where it points now
}

// Patching the clock's code needs memory that is writable and executable (a patched copy in an
// anonymous executable mapping moved over the code, or the code's pages made writable): the
// seccomp profile answers EACCES to both, the patch fails, and the plain loop is timed honestly. Without the sandbox the patch
// lands, and the seal sees the changed code.
TEST(TimerSeal, CodeCannotBePatchedUnderTheSandboxAndPatchedCodeIsSeenWithout) {
#if !defined(__x86_64__)
  GTEST_SKIP() << "the patch in patched_clock_code.cpp is x86-64 code";
#endif
  auto r = eval(redteam("patched_clock_code"), {"--shape", "n=100003", "--max-time", "0.2"});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(timer_mismatch_message(r.verdict), "") << r.output;
  testing::ArenaRun open;
  {
    testing::ScopedEnv off("ARENA_NO_SANDBOX", "1");
    open = eval(redteam("patched_clock_code"), {"--shape", "n=100003", "--max-time", "0.2"});
  }
  EXPECT_EQ(open.exit_code, 1) << open.output;
  EXPECT_NE(timer_mismatch_message(open.verdict).find("the code of clock_gettime"), std::string::npos)
      << open.output;
}

TEST(HostThread, AThreadLeftRunningByTimedCallsIsFlagged) {
  auto r = eval(redteam("host_thread"), {"--shape", "n=100003", "--max-time", "0.3"});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_TRUE(r.verdict["summary"]["failure_class"].is_null()) << r.output;
  ASSERT_TRUE(has_flag(r.verdict, "host_thread")) << r.verdict["flags"];
  EXPECT_EQ(r.verdict["summary"]["speedup_voided"], true);
  const auto& threads = r.verdict["shapes"][0]["timing"]["runner_threads"];
  EXPECT_GT(threads["left_running"].get<int>(), 0) << threads;
}

TEST(HostThread, ThreadsJoinedInTheCallAreNotFlagged) {
  auto r = eval(redteam("honest_joined_threads"), {"--shape", "n=100003", "--max-time", "0.3"});
  EXPECT_TRUE(r.verdict["summary"]["failure_class"].is_null()) << r.output;
  EXPECT_FALSE(has_flag(r.verdict, "host_thread")) << r.verdict["flags"];
  // Their CPU time is more than one thread's, from threads gone when the judge counts: the
  // timer check sees them gone and allows every core.
  EXPECT_FALSE(has_flag(r.verdict, "timer_mismatch")) << r.verdict["flags"];
  EXPECT_EQ(r.verdict["shapes"][0]["timing"]["runner_threads"]["left_running"], 0);
}

TEST(HostThread, AnOpenMpPoolStartedBeforeTimingIsNotFlagged) {
  auto r = eval(source_path("examples/cpu/vector_add_f32/omp_simd.cpp"), {"--shape", "n=4194304", "--max-time", "0.3"});
  EXPECT_FALSE(has_flag(r.verdict, "host_thread")) << r.verdict["flags"];
  EXPECT_FALSE(has_flag(r.verdict, "timer_mismatch")) << r.verdict["flags"];  // a pool's CPU time
  EXPECT_TRUE(r.verdict["summary"]["failure_class"].is_null()) << r.output;
}

}  // namespace
}  // namespace arena
