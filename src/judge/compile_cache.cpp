#include "judge/compile_cache.hpp"

#include <unistd.h>

#include <cstdlib>

#include "core/error.hpp"
#include "core/sha256.hpp"
#include "core/subprocess.hpp"

namespace arena {

namespace fs = std::filesystem;

fs::path default_cache_dir() {
  if (const char* d = std::getenv("ARENA_CACHE_DIR"); d && *d) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return fs::path(x) / "kernelarena";
  if (const char* h = std::getenv("HOME"); h && *h) return fs::path(h) / ".cache" / "kernelarena";
  return fs::temp_directory_path() / "kernelarena-cache";
}

CompileCache::CompileCache(fs::path root) : root_(std::move(root)) {}

CompileResult CompileCache::build(const CompileJob& job) const {
  std::string material = "toolchain\n" + job.toolchain + "\ncommand\n";
  for (const auto& a : job.command) material += a + "\n";
  for (const auto& [name, content] : job.files)
    material += "file " + name + " " + std::to_string(content.size()) + "\n" + content;
  CompileResult r;
  r.key = sha256_hex(material);
  for (const auto& a : job.command) r.command += (r.command.empty() ? "" : " ") + a;
  fs::path entry = root_ / "compile" / r.key.substr(0, 2) / r.key;
  r.library = entry / job.output;

  if (fs::exists(entry / "status")) {
    r.cached = true;
    r.ok = read_file(entry / "status") == "ok";
    r.log = read_file(entry / "log.txt");
    return r;
  }

  std::error_code ec;
  fs::path work = root_ / "compile" / "tmp" / (r.key + "." + std::to_string(getpid()));
  fs::remove_all(work, ec);
  fs::create_directories(work, ec);
  if (ec) throw InternalError(work.string() + ": cannot create the build directory: " + ec.message());
  for (const auto& [name, content] : job.files) write_file_atomic(work / name, content);
  ProcessResult p = run_process(job.command, job.timeout_s, work);
  r.seconds = p.seconds;
  r.log = p.output;
  if (p.timed_out) {
    r.log += "\n[the compiler did not finish within " + std::to_string(static_cast<int>(job.timeout_s)) + " s]\n";
    fs::remove_all(work, ec);
    return r;
  }
  r.ok = p.exit_code == 0 && fs::exists(work / job.output);
  write_file_atomic(work / "log.txt", r.log);
  write_file_atomic(work / "status", r.ok ? "ok" : "failed");
  fs::create_directories(entry.parent_path(), ec);
  fs::rename(work, entry, ec);
  if (ec) {  // another judge built the same key first: use theirs
    fs::remove_all(work, ec);
    if (!fs::exists(entry / "status")) throw InternalError(entry.string() + ": compile cache entry is broken; delete it");
  }
  return r;
}

}  // namespace arena
