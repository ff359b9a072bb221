#pragma once
// The --out file is written whole or not at all: the text goes to a temporary file beside it,
// renamed over it once complete. Until then an error or an interrupt leaves nothing behind. A path
// that exists and is not a regular file (a device, a pipe) is written in place; a symbolic link is
// followed, so the file it names is replaced and the link kept.
#include <string>

class OutputFile {
 public:
  // An empty path means standard output. Otherwise the temporary file is created now, so that an
  // unwritable path fails before any work is done; throws std::runtime_error naming the path.
  explicit OutputFile(std::string path);
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();  // deletes the temporary file unless committed

  // Writes the text and renames it into place; throws std::runtime_error naming the path.
  void commit(const std::string& text);

 private:
  void discard();

  std::string path_, target_, temporary_path_;
  int descriptor_ = -1;
  bool writes_in_place_ = false;
};
