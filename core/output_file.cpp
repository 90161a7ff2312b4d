#include "core/output_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/input_file.hpp"
#include "core/invalid_input.hpp"

namespace musket {

void check_output_target(const std::string& path, const std::string& field) {
  if (path.empty()) throw invalid_input(field, "the file name is empty");
  if (path.back() == '/') throw invalid_input(field, "'" + path + "' names a directory, not a file");
  struct stat info {};
  if (::lstat(path.c_str(), &info) != 0) return;  // not there yet: the write will tell if the directory is wrong
  if (S_ISLNK(info.st_mode))
    throw invalid_input(field, "'" + path + "' is a symbolic link; name the file it points to");
  if (S_ISDIR(info.st_mode)) throw invalid_input(field, "'" + path + "' is a directory, not a file");
  if (!S_ISREG(info.st_mode))
    throw invalid_input(field, "'" + path + "' is not a regular file (a device, a pipe or a socket)");
}

void check_output_not_input(const std::string& path, const std::string& field, const std::vector<std::string>& inputs) {
  struct stat out {};
  if (path.empty() || ::stat(path.c_str(), &out) != 0) return;
  for (const auto& input : inputs) {
    struct stat in {};
    if (input.empty() || ::stat(input.c_str(), &in) != 0) continue;
    if (in.st_dev == out.st_dev && in.st_ino == out.st_ino)
      throw invalid_input(field, "'" + path + "' is the input file '" + input +
                                     "' this command reads; write the output to another file");
  }
}

void write_output_file(const std::string& path, const std::string& contents, const std::string& field) {
  check_output_target(path, field);
  const auto fail = [&](const std::string& temp) {
    const std::string why = std::strerror(errno);
    if (!temp.empty()) ::unlink(temp.c_str());
    throw environment_problem(field, "cannot write '" + path + "': " + why);
  };
  std::string temp = path + ".tmp-XXXXXX";
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) fail("");
  // mkstemp makes the file private; give it the mode an ordinary write would (0666 less umask).
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  std::size_t written = 0;
  while (written < contents.size()) {
    const ssize_t n = ::write(fd, contents.data() + written, contents.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int error = errno;
      ::close(fd);
      errno = error;
      fail(temp);
    }
    written += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) {
    const int error = errno;
    ::close(fd);
    errno = error;
    fail(temp);
  }
  if (::close(fd) != 0) fail(temp);
  if (std::rename(temp.c_str(), path.c_str()) != 0) fail(temp);
}

}  // namespace musket
