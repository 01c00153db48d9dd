#include "agents/agent_sandbox.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>

#include "core/subprocess.hpp"

namespace arena {
namespace {

namespace fs = std::filesystem;

// The path with its symlinks resolved as far as it exists.
fs::path resolved(const fs::path& p) {
  std::error_code ec;
  fs::path r = fs::weakly_canonical(fs::absolute(p), ec);
  return ec ? fs::absolute(p).lexically_normal() : r;
}

// `inner` is `outer` or lies inside it.
bool is_within(const fs::path& inner, const fs::path& outer) {
  auto [o, i] = std::mismatch(outer.begin(), outer.end(), inner.begin(), inner.end());
  return o == outer.end() || (std::next(o) == outer.end() && o->empty());  // "a/b/" holds "a/b/c"
}

void add(std::vector<std::string>& argv, std::initializer_list<std::string> args) {
  argv.insert(argv.end(), args);
}

// Files the system directories point out of themselves: /etc/resolv.conf into /run (whose
// other sockets stay hidden), /usr/local/cuda into a toolkit elsewhere.
std::vector<fs::path> system_link_targets() {
  std::vector<fs::path> out;
  for (const char* p : {"/etc/resolv.conf", "/usr/local/cuda"}) {
    std::error_code ec;
    if (!fs::is_symlink(p, ec) || !fs::exists(p, ec)) continue;
    fs::path target = resolved(p);
    if (!in_sandbox_system(target)) out.push_back(target);
  }
  return out;
}

}  // namespace

const std::vector<fs::path>& sandbox_system_paths() {
  static const std::vector<fs::path> paths = {"/usr",   "/bin",   "/sbin", "/lib", "/lib32",
                                              "/lib64", "/libx32", "/etc", "/opt", "/sys"};
  return paths;
}

bool in_sandbox_system(const fs::path& path) {
  fs::path p = resolved(path);
  for (const auto& s : sandbox_system_paths())
    if (is_within(p, s)) return true;
  return false;
}

fs::path bind_exposes(const fs::path& path, const std::vector<fs::path>& hidden) {
  fs::path p = resolved(path);
  for (const auto& h : hidden) {
    fs::path hr = resolved(h);
    if (is_within(hr, p) || is_within(p, hr)) return h;
  }
  return {};
}

std::vector<std::string> bwrap_argv(const SandboxSpec& s, const std::vector<std::string>& command) {
  // Every namespace of its own (user, pid, ipc, uts, cgroup, network), no capabilities; killed
  // with arena; a new session is not asked of bwrap: arena already starts the agent in a session
  // of its own (agent_process.cpp), and bwrap's --new-session would move the sandbox's init out
  // of the process group that the time limit kills.
  std::vector<std::string> argv = {"bwrap", "--unshare-all", "--die-with-parent", "--cap-drop",
                                   "ALL"};
  if (s.network) argv.emplace_back("--share-net");
  for (const auto& p : sandbox_system_paths()) {
    std::error_code ec;
    if (fs::is_symlink(p, ec))
      add(argv, {"--symlink", fs::read_symlink(p, ec).string(), p.string()});
    else if (fs::exists(p, ec))
      add(argv, {"--ro-bind", p.string(), p.string()});
  }
  for (const auto& t : system_link_targets()) add(argv, {"--ro-bind", t.string(), t.string()});
  add(argv, {"--dev", "/dev"});
  for (const auto& d : s.devices) add(argv, {"--dev-bind", d.string(), d.string()});
  add(argv, {"--proc", "/proc", "--tmpfs", "/tmp"});
  if (!s.home.empty() && s.home != "/") add(argv, {"--tmpfs", s.home.string()});
  for (const auto& b : s.binds) {
    fs::path dest = b.dest.empty() ? b.source : b.dest;
    add(argv, {b.writable ? "--bind" : "--ro-bind", b.source.string(), dest.string()});
  }
  add(argv, {"--bind", s.workspace.string(), s.workspace.string(), "--chdir",
             s.workspace.string(), "--"});
  argv.insert(argv.end(), command.begin(), command.end());
  return argv;
}

std::string probe_bwrap(bool network) {
  std::string templ = (fs::temp_directory_path() / "arena-sandbox-probe-XXXXXX").string();
  if (!mkdtemp(templ.data())) return "cannot create a directory for the probe in " + templ;
  SandboxSpec s;
  s.workspace = templ;
  s.network = network;
  ProcessResult r;
  try {
    r = run_process(bwrap_argv(s, {"true"}), 20);
  } catch (const std::exception& e) {
    r.output = e.what();
  }
  std::error_code ec;
  fs::remove_all(templ, ec);
  if (r.exit_code == 0) return "";
  std::string out = r.output;
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  if (r.timed_out) return "bwrap did not finish a sandboxed `true` within 20 s";
  return "bwrap " + (r.exit_code == 127 || out.find("No such file") != std::string::npos
                         ? std::string("is not installed (or not on PATH)")
                         : "cannot build the sandbox here") +
         (out.empty() ? "" : ": " + out);
}

std::vector<fs::path> gpu_device_nodes() {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/dev", ec)) {
    std::string name = e.path().filename().string();
    if (name.rfind("nvidia", 0) == 0 || name == "dri") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace arena
