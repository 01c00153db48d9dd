// The bwrap command line of an external agent's sandbox, as agent_sandbox.cpp builds it from a
// description; and the check that keeps binds away from the tasks and runs directories.

#include "agents/agent_sandbox.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace arena {
namespace {

using Argv = std::vector<std::string>;

// Where `seq` starts in `argv`, or -1.
long find_seq(const Argv& argv, const Argv& seq) {
  auto it = std::search(argv.begin(), argv.end(), seq.begin(), seq.end());
  return it == argv.end() ? -1 : it - argv.begin();
}

SandboxSpec spec() {
  SandboxSpec s;
  s.workspace = "/tmp/runs/r/episodes/e/workspace";
  s.home = "/home/u";
  return s;
}

TEST(AgentSandboxArgv, WorkspaceIsWritableAndTheWorkingDirectoryAndTheCommandComesLast) {
  Argv a = bwrap_argv(spec(), {"claude", "-p", "hi"});
  const std::string ws = "/tmp/runs/r/episodes/e/workspace";
  EXPECT_EQ(a.front(), "bwrap");
  EXPECT_GE(find_seq(a, {"--bind", ws, ws}), 0);
  EXPECT_GE(find_seq(a, {"--chdir", ws}), 0);
  EXPECT_EQ(find_seq(a, {"--", "claude", "-p", "hi"}), static_cast<long>(a.size()) - 4);
}

TEST(AgentSandboxArgv, SystemIsReadOnlyAndSymlinksStaySymlinks) {
  Argv a = bwrap_argv(spec(), {"true"});
  EXPECT_GE(find_seq(a, {"--ro-bind", "/usr", "/usr"}), 0);
  EXPECT_GE(find_seq(a, {"--ro-bind", "/etc", "/etc"}), 0);
  for (const auto& p : sandbox_system_paths()) {
    EXPECT_LT(find_seq(a, {"--bind", p.string(), p.string()}), 0) << p << " is writable";
    if (std::filesystem::is_symlink(p)) {
      Argv link = {"--symlink", std::filesystem::read_symlink(p).string(), p.string()};
      EXPECT_GE(find_seq(a, link), 0) << p;
    }
  }
}

TEST(AgentSandboxArgv, NothingOfTheHostIsBoundWholesale) {
  Argv a = bwrap_argv(spec(), {"true"});
  EXPECT_LT(find_seq(a, {"--ro-bind", "/", "/"}), 0);
  EXPECT_LT(find_seq(a, {"--bind", "/", "/"}), 0);
  EXPECT_LT(find_seq(a, {"--ro-bind", "/run", "/run"}), 0);  // sockets (docker, dbus)
  EXPECT_LT(find_seq(a, {"--ro-bind", "/home", "/home"}), 0);
}

TEST(AgentSandboxArgv, TmpAndHomeArePrivateAndComeBeforeTheBinds) {
  SandboxSpec s = spec();
  s.binds = {{"/tmp/arena-tool-x", {}, false}, {"/home/u/.claude", {}, true}};
  Argv a = bwrap_argv(s, {"true"});
  long tmp = find_seq(a, {"--tmpfs", "/tmp"}), home = find_seq(a, {"--tmpfs", "/home/u"});
  long socket = find_seq(a, {"--ro-bind", "/tmp/arena-tool-x", "/tmp/arena-tool-x"});
  long claude = find_seq(a, {"--bind", "/home/u/.claude", "/home/u/.claude"});
  ASSERT_GE(tmp, 0);
  ASSERT_GE(home, 0);
  EXPECT_GT(socket, tmp);
  EXPECT_GT(claude, home);
}

TEST(AgentSandboxArgv, ABindMayPutASourceElsewhere) {
  SandboxSpec s = spec();
  s.binds = {{"/build/arena-tool", "/tmp/runs/r/episodes/e/bin/arena-tool", false}};
  Argv a = bwrap_argv(s, {"true"});
  EXPECT_GE(find_seq(a, {"--ro-bind", "/build/arena-tool", "/tmp/runs/r/episodes/e/bin/arena-tool"}),
            0);
}

TEST(AgentSandboxArgv, DevIsMinimalWithoutGpuNodesUnlessPassed) {
  Argv a = bwrap_argv(spec(), {"true"});
  EXPECT_GE(find_seq(a, {"--dev", "/dev"}), 0);
  for (const auto& arg : a) {
    EXPECT_EQ(arg.find("/dev/nvidia"), std::string::npos) << arg;
    EXPECT_EQ(arg.find("/dev/dri"), std::string::npos) << arg;
  }
  SandboxSpec s = spec();
  s.devices = {"/dev/nvidia0", "/dev/nvidiactl"};
  Argv g = bwrap_argv(s, {"true"});
  EXPECT_GT(find_seq(g, {"--dev-bind", "/dev/nvidia0", "/dev/nvidia0"}), find_seq(g, {"--dev", "/dev"}));
  EXPECT_GE(find_seq(g, {"--dev-bind", "/dev/nvidiactl", "/dev/nvidiactl"}), 0);
}

TEST(AgentSandboxArgv, NetworkIsSharedByDefaultAndCanBeCut) {
  Argv shared = bwrap_argv(spec(), {"true"});
  EXPECT_GE(find_seq(shared, {"--unshare-all"}), 0);
  EXPECT_GE(find_seq(shared, {"--share-net"}), 0);
  SandboxSpec s = spec();
  s.network = false;
  Argv none = bwrap_argv(s, {"true"});
  EXPECT_GE(find_seq(none, {"--unshare-all"}), 0);
  EXPECT_LT(find_seq(none, {"--share-net"}), 0);
}

TEST(AgentSandboxArgv, DiesWithArenaAndStaysInTheProcessGroupArenaKills) {
  Argv a = bwrap_argv(spec(), {"true"});
  EXPECT_GE(find_seq(a, {"--die-with-parent"}), 0);
  EXPECT_GE(find_seq(a, {"--cap-drop", "ALL"}), 0);
  // --new-session would move the sandbox's init out of the agent's process group.
  EXPECT_LT(find_seq(a, {"--new-session"}), 0);
}

TEST(AgentSandboxBinds, ABindHoldingOrInsideAHiddenPathIsCaught) {
  std::vector<std::filesystem::path> hidden = {"/srv/arena/tasks", "/srv/arena/runs"};
  EXPECT_EQ(bind_exposes("/srv/arena", hidden), "/srv/arena/tasks");
  EXPECT_EQ(bind_exposes("/srv/arena/tasks/cpu", hidden), "/srv/arena/tasks");
  EXPECT_EQ(bind_exposes("/srv/arena/runs", hidden), "/srv/arena/runs");
  EXPECT_EQ(bind_exposes("/", hidden), "/srv/arena/tasks");
  EXPECT_EQ(bind_exposes("/srv/arena/agents", hidden), "");
  EXPECT_EQ(bind_exposes("/srv/arena/tasks-notes", hidden), "");
}

TEST(AgentSandboxBinds, SystemPathsNeedNoBind) {
  EXPECT_TRUE(in_sandbox_system("/usr/bin/sh"));
  EXPECT_TRUE(in_sandbox_system("/etc"));
  EXPECT_FALSE(in_sandbox_system("/home/u/.local/bin/claude"));
  EXPECT_FALSE(in_sandbox_system("/usrlocal"));
}

}  // namespace
}  // namespace arena
