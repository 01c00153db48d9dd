// The sandbox of an external agent: bubblewrap (bwrap) builds it from a description — the
// workspace writable and its working directory, the system read-only, a private /tmp and an empty
// private home, a minimal /dev (no GPU device nodes unless they are passed in), a PID namespace
// that dies with arena, and the network shared or not. Nothing else of the machine is in it: no
// tasks directory, no runs directory, no other workspace (docs/episodes.md, "The sandbox").
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace arena {

// What a run asks of its agents' sandbox (run.yaml: sandbox, agent_gpu, agent_network).
struct SandboxRequest {
  std::string mode = "none";  // bwrap | none
  bool gpu = false;           // the GPU device nodes are visible to the agent
  bool network = true;        // the host's network (agents need their API endpoint)
  // What no bind may show (the tasks directory, the runs directory): a bind that holds one of
  // them, or lies inside one, is refused.
  std::vector<std::filesystem::path> hidden;
};

struct SandboxBind {
  std::filesystem::path source;
  std::filesystem::path dest;  // where the agent sees it; empty: at `source`
  bool writable = false;
};

struct SandboxSpec {
  std::filesystem::path workspace;  // writable, the agent's working directory
  std::filesystem::path home;       // an empty private directory here ($HOME); empty: none
  std::vector<SandboxBind> binds;   // on top of the rest, in this order
  std::vector<std::filesystem::path> devices;  // device nodes passed through (--agent-gpu)
  bool network = true;
};

// The directories of the system bound read-only (those that exist; a symlink such as /bin ->
// usr/bin is made again as the same symlink).
const std::vector<std::filesystem::path>& sandbox_system_paths();

// `bwrap OPTIONS -- command...`: `command` run in the sandbox `s` describes.
std::vector<std::string> bwrap_argv(const SandboxSpec& s, const std::vector<std::string>& command);

// "" when bwrap is on PATH and a sandbox built as bwrap_argv builds it runs `true`; else why not
// (bwrap missing, user namespaces not allowed, /proc not mountable...).
std::string probe_bwrap(bool network);

// /dev/nvidia*, /dev/nvidia-caps, /dev/dri: this machine's GPU device nodes.
std::vector<std::filesystem::path> gpu_device_nodes();

// The first of `hidden` that a bind of `path` would show (path holds it or lies inside it);
// empty when none. Paths are compared after resolving symlinks.
std::filesystem::path bind_exposes(const std::filesystem::path& path,
                                   const std::vector<std::filesystem::path>& hidden);

// True when `path` is under one of the system paths (already in every sandbox, read-only).
bool in_sandbox_system(const std::filesystem::path& path);

}  // namespace arena
