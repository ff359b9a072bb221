#include "output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <vector>

#include "interrupt.hpp"

namespace {

std::runtime_error cannot_write(const std::string& path, int error) {
  return std::runtime_error("cannot write '" + path + "': " + std::strerror(error));
}

// mkstemp creates files readable by their owner only; the result gets the mode any new file would.
mode_t new_file_mode() {
  const mode_t mask = umask(0);
  umask(mask);
  return 0666 & ~mask;
}

void write_all(int descriptor, const std::string& text, const std::string& path) {
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t written = write(descriptor, text.data() + done, text.size() - done);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) throw cannot_write(path, written < 0 ? errno : ENOSPC);
    done += std::size_t(written);
  }
}

}  // namespace

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
  if (path_.empty()) return;
  target_ = path_;
  struct stat existing {};
  if (stat(path_.c_str(), &existing) == 0) {
    if (S_ISDIR(existing.st_mode)) throw cannot_write(path_, EISDIR);
    // Renaming over a device or a pipe would replace it rather than write to it.
    if (!S_ISREG(existing.st_mode)) {
      if (access(path_.c_str(), W_OK) != 0) throw cannot_write(path_, errno);
      writes_in_place_ = true;
      return;
    }
    // Through a symbolic link (/dev/stdout redirected to a file, too) the file it names is replaced, not the link.
    if (char* resolved = realpath(path_.c_str(), nullptr)) {
      target_ = resolved;
      std::free(resolved);
    }
  }
  std::vector<char> name(target_.begin(), target_.end());
  const std::string suffix = ".partial-XXXXXX";
  name.insert(name.end(), suffix.begin(), suffix.end());
  name.push_back('\0');
  descriptor_ = mkstemp(name.data());
  if (descriptor_ < 0) throw cannot_write(path_, errno);
  temporary_path_ = name.data();
  discard_on_interrupt(temporary_path_.c_str());
  if (fchmod(descriptor_, new_file_mode()) != 0) {
    const int error = errno;
    discard();
    throw cannot_write(path_, error);
  }
}

OutputFile::~OutputFile() { discard(); }

void OutputFile::discard() {
  if (descriptor_ >= 0) close(descriptor_);
  descriptor_ = -1;
  if (temporary_path_.empty()) return;
  unlink(temporary_path_.c_str());
  discard_on_interrupt(nullptr);
  temporary_path_.clear();
}

void OutputFile::commit(const std::string& text) {
  if (path_.empty()) {
    std::cout << text << std::flush;
    return;
  }
  if (writes_in_place_) {
    const int descriptor = open(path_.c_str(), O_WRONLY | O_TRUNC);
    if (descriptor < 0) throw cannot_write(path_, errno);
    try {
      write_all(descriptor, text, path_);
    } catch (...) {
      close(descriptor);
      throw;
    }
    if (close(descriptor) != 0) throw cannot_write(path_, errno);
    return;
  }
  try {
    write_all(descriptor_, text, path_);
  } catch (...) {
    discard();
    throw;
  }
  const int closed = close(descriptor_);
  descriptor_ = -1;
  if (closed != 0 || rename(temporary_path_.c_str(), target_.c_str()) != 0) {
    const int error = errno;
    discard();
    throw cannot_write(path_, error);
  }
  discard_on_interrupt(nullptr);
  temporary_path_.clear();
}
