#pragma once
// The --out file is written whole or not at all: the text goes to a temporary file beside it,
// renamed over it once complete. Until then an error or an interrupt leaves nothing behind. A file that is
// replaced keeps its permissions (and, where this process may set them, its owner and group). A path
// that exists and is not a regular file (a device, a pipe) is written in place; a symbolic link is
// followed, so the file it names is replaced and the link kept. Standard output is written with every
// write checked: a full disk, a closed descriptor or a pipe whose reader went away is an error, never a
// silent success.
#include <stdexcept>
#include <string>

#include "interrupt.hpp"

// A failed write to standard output (the CLI's exit status 4), as opposed to a failed --out file (2).
class StdoutError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Writes all of `text` to standard output; throws StdoutError naming the cause.
void write_stdout(const std::string& text);

class OutputFile {
 public:
  // An empty path means standard output. Otherwise the temporary file is created now, so that an
  // unwritable path fails before any work is done; throws std::runtime_error naming the path. `which` says which
  // slot of interrupt.hpp a signal finds it in: the results, or the partial results kept beside them. A new file gets
  // the permission bits `new_file_mode_bits` where given (>= 0), else those the umask leaves.
  explicit OutputFile(std::string path, PendingFile which = PendingFile::results, int new_file_mode_bits = -1);
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();  // deletes the temporary file unless committed

  // Writes the text and renames it into place; throws std::runtime_error naming the path (StdoutError for
  // standard output).
  void commit(const std::string& text);

  // Where the finished shapes' results are kept during the run: the file's name with ".partial" added; empty for
  // standard output and for a path written in place (a device, a pipe).
  std::string partial_path() const;
  // The permission bits of the file it replaces; -1 for a new file or standard output.
  int replaced_mode() const { return replaced_mode_; }

 private:
  void discard();

  std::string path_, target_, temporary_path_;
  PendingFile which_;
  int replaced_mode_ = -1;
  int descriptor_ = -1;
  bool writes_in_place_ = false;
};
