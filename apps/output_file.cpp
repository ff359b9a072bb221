#include "output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "interrupt.hpp"

namespace {

std::runtime_error cannot_write(const std::string& path, int error) {
  return std::runtime_error("cannot write '" + path + "': " + std::strerror(error));
}

// mkstemp's error beside `target`: ENOENT from a folder that exists is a file system that takes no new files
// (/proc, /sys), which "No such file or directory" would hide.
std::runtime_error cannot_create_beside(const std::string& path, const std::string& target, int error) {
  const std::string::size_type slash = target.find_last_of('/');
  const std::string folder = slash == std::string::npos ? "." : slash == 0 ? "/" : target.substr(0, slash);
  struct stat info {};
  if (error == ENOENT && stat(folder.c_str(), &info) == 0 && S_ISDIR(info.st_mode))
    return std::runtime_error("cannot write '" + path + "': its folder '" + folder +
                              "' takes no new files, and --out writes the results to a new file there that then "
                              "replaces the old one");
  return cannot_write(path, error);
}

// mkstemp creates files readable by their owner only; the result gets the mode any new file would.
mode_t new_file_mode() {
  const mode_t mask = umask(0);
  umask(mask);
  return 0666 & ~mask;
}

// 0, or the errno of the write that failed.
int write_all(int descriptor, const std::string& text) {
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t written = write(descriptor, text.data() + done, text.size() - done);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return written < 0 ? errno : ENOSPC;
    done += std::size_t(written);
  }
  return 0;
}

void write_all(int descriptor, const std::string& text, const std::string& path) {
  if (const int error = write_all(descriptor, text)) throw cannot_write(path, error);
}

}  // namespace

void write_stdout(const std::string& text) {
  if (const int error = write_all(STDOUT_FILENO, text))
    throw StdoutError(std::string("cannot write the results to standard output: ") + std::strerror(error));
  // A file may report a full disk or a lost device only when its data is flushed (pipes and terminals cannot be).
  if (fsync(STDOUT_FILENO) != 0 && (errno == EIO || errno == ENOSPC || errno == EDQUOT))
    throw StdoutError(std::string("cannot write the results to standard output: ") + std::strerror(errno));
  results_written();
}

OutputFile::OutputFile(std::string path, PendingFile which, int new_file_mode_bits)
    : path_(std::move(path)), which_(which) {
  if (path_.empty()) return;
  target_ = path_;
  struct stat existing {};
  const bool replaces = stat(path_.c_str(), &existing) == 0;
  if (replaces) replaced_mode_ = int(existing.st_mode & 07777);
  if (replaces) {
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
  const std::string suffix = ".tmp-XXXXXX";
  name.insert(name.end(), suffix.begin(), suffix.end());
  name.push_back('\0');
  {
    const SignalsHeld held;  // a signal between the two would leave the temporary file behind
    descriptor_ = mkstemp(name.data());
    if (descriptor_ < 0) throw cannot_create_beside(path_, target_, errno);
    temporary_path_ = name.data();
    discard_on_interrupt(temporary_path_.c_str(), which_);
  }
  // A replaced file keeps its permissions, and its owner and group where this process may set them.
  if (replaces && fchown(descriptor_, existing.st_uid, existing.st_gid) != 0)
    (void)!fchown(descriptor_, uid_t(-1), existing.st_gid);
  const mode_t mode = replaces                  ? existing.st_mode & 07777
                     : new_file_mode_bits >= 0 ? mode_t(new_file_mode_bits)
                                               : new_file_mode();
  if (fchmod(descriptor_, mode) != 0) {
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
  discard_on_interrupt(nullptr, which_);
  temporary_path_.clear();
}

void OutputFile::commit(const std::string& text) {
  if (path_.empty()) return write_stdout(text);
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
    if (which_ == PendingFile::results) results_written();
    return;
  }
  try {
    write_all(descriptor_, text, path_);
  } catch (...) {
    discard();
    throw;
  }
  // fsync: a full disk may show only when the data is flushed, and the rename must not publish a file whose data
  // is not there yet.
  const int synced = fsync(descriptor_) == 0 ? 0 : errno;
  const int closed = close(descriptor_) == 0 ? 0 : errno;
  descriptor_ = -1;
  if (synced != 0 || closed != 0) {
    discard();
    throw cannot_write(path_, synced != 0 ? synced : closed);
  }
  const SignalsHeld held;  // a signal between the rename and the next two lines would report no results
  if (rename(temporary_path_.c_str(), target_.c_str()) != 0) {
    const int error = errno;
    discard();
    throw cannot_write(path_, error);
  }
  discard_on_interrupt(nullptr, which_);
  temporary_path_.clear();
  if (which_ == PendingFile::results) results_written();
}

std::string OutputFile::partial_path() const {
  if (path_.empty() || writes_in_place_) return "";
  return target_ + ".partial";
}
