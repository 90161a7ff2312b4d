#include "core/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace musket {

namespace {

[[noreturn]] void cannot_read(const std::string& path, const std::string& field, int error) {
  throw environment_problem(field, "cannot read '" + path + "': " + std::strerror(error));
}

struct descriptor {
  int fd;
  ~descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::string read_input_file(const std::string& path, const std::string& field, std::size_t limit) {
  if (path.empty()) throw invalid_input(field, "the file name is empty");
  const descriptor file{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY)};
  if (file.fd < 0) cannot_read(path, field, errno);
  struct stat info {};
  if (::fstat(file.fd, &info) != 0) cannot_read(path, field, errno);
  if (S_ISDIR(info.st_mode)) cannot_read(path, field, EISDIR);
  const std::string too_big =
      "'" + path + "' is larger than the " + std::to_string(limit / 1024) + " KB an input file may have";
  if (S_ISREG(info.st_mode) && static_cast<unsigned long long>(info.st_size) > limit)
    throw invalid_input(field, too_big);
  std::string text;
  char buffer[65536];
  while (text.size() <= limit) {
    const std::size_t want = std::min(sizeof buffer, limit + 1 - text.size());
    const ssize_t n = ::read(file.fd, buffer, want);
    if (n < 0) {
      if (errno == EINTR) continue;
      cannot_read(path, field, errno);
    }
    if (n == 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
  }
  if (text.size() > limit) throw invalid_input(field, too_big);
  return text;
}

}  // namespace musket
