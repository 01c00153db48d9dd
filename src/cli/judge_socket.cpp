#include "cli/judge_socket.hpp"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "core/error.hpp"

namespace arena::cli {
namespace {

sockaddr_un address_of(const std::string& path) {
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  if (path.empty() || path.size() >= sizeof(a.sun_path))
    throw InputError("judge socket '" + path + "': a socket path must be 1 to " +
                     std::to_string(sizeof(a.sun_path) - 1) +
                     " characters (ARENA_JUDGE_SOCKET or --socket/--server)");
  std::memcpy(a.sun_path, path.c_str(), path.size() + 1);
  return a;
}

// A connected socket to `path`, or -1 with errno set.
int try_connect(const std::string& path) {
  const sockaddr_un a = address_of(path);
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  if (connect(fd, reinterpret_cast<const sockaddr*>(&a), sizeof(a)) == 0) return fd;
  const int e = errno;
  close(fd);
  errno = e;
  return -1;
}

}  // namespace

std::string default_judge_socket() {
  if (const char* env = std::getenv("ARENA_JUDGE_SOCKET"); env && *env) return env;
  return "/tmp/kernelarena-" + std::to_string(getuid()) + "/judge.sock";
}

int listen_judge_socket(const std::string& path) {
  const sockaddr_un a = address_of(path);
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  if (!dir.empty() && !std::filesystem::exists(dir)) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec)
      throw InputError("judge socket '" + path + "': cannot make " + dir.string() + ": " +
                       ec.message());
    chmod(dir.c_str(), 0700);
  }
  // A directory someone else could write in could hold someone else's socket by that name.
  struct stat d {};
  const std::string where = dir.empty() ? "." : dir.string();
  if (lstat(where.c_str(), &d) != 0 || !S_ISDIR(d.st_mode) ||
      !(d.st_uid == getuid() || (d.st_uid == 0 && (d.st_mode & S_ISVTX))) ||
      (d.st_uid == getuid() && (d.st_mode & 0022) && !(d.st_mode & S_ISVTX)))
    throw InputError("judge socket '" + path + "': its directory " + where +
                     " must be yours and not writable by others (or a sticky one such as /tmp)");
  if (const int other = try_connect(path); other >= 0) {
    close(other);
    throw InputError("judge socket '" + path +
                     "': a judge server already answers there (stop it, or give --socket)");
  }
  unlink(path.c_str());  // a socket file left by a server that ended
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw InputError("judge socket '" + path + "': " + std::strerror(errno));
  const mode_t old = umask(0077);
  const bool bound = bind(fd, reinterpret_cast<const sockaddr*>(&a), sizeof(a)) == 0;
  const int e = errno;
  umask(old);
  if (!bound || listen(fd, 16) != 0) {
    close(fd);
    throw InputError("judge socket '" + path +
                     "': cannot listen there: " + std::strerror(bound ? errno : e));
  }
  return fd;
}

int connect_judge_socket(const std::string& path) {
  // Only a server of this user is asked to judge (and believed).
  struct stat st {};
  if (stat(path.c_str(), &st) == 0 && st.st_uid != getuid())
    throw InputError("judge socket '" + path + "' belongs to user " + std::to_string(st.st_uid) +
                     ", not to you: start your own with `arena serve --socket PATH`");
  const int fd = try_connect(path);
  if (fd < 0)
    throw InputError("no judge server answers on '" + path + "' (" + std::strerror(errno) +
                     "): start one with `arena serve` (same --socket), or judge without --server");
  return fd;
}

LineChannel::~LineChannel() {
  if (fd_ >= 0) close(fd_);
}

bool LineChannel::read_line(std::string& line) {
  for (;;) {
    if (const size_t nl = buffer_.find('\n'); nl != std::string::npos) {
      line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      return true;
    }
    char chunk[65536];
    const ssize_t n = read(fd_, chunk, sizeof(chunk));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    buffer_.append(chunk, static_cast<size_t>(n));
  }
}

bool LineChannel::write_line(const std::string& line) {
  const std::string data = line + "\n";
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = send(fd_, data.data() + done, data.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace arena::cli
