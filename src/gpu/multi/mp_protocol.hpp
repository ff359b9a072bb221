#pragma once
// What gpu/cublasmp-fp32's parent process and its worker processes (one per GPU) say to each other: the worker's
// command line, the layout of the shared memory holding A, B and C, and the one-line commands and replies on the
// socket between them. Pure text and arithmetic, so both sides and the CPU tests share one definition.
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "block_cyclic.hpp"

namespace matcompare::gpu::mp {

// The worker's file descriptors: its end of the command socket and the shared memory (stdout goes to stderr, so
// NCCL's or NVSHMEM's messages can never mix with the CLI's output).
constexpr int kSocketFd = 3;
constexpr int kSharedFd = 4;

// Row-major A (M x K), B (K x N) and C (M x N), one after the other, in floats.
struct SharedLayout {
  std::int64_t a = 0, b = 0, c = 0, floats = 0;
  std::size_t bytes() const { return std::size_t(floats) * sizeof(float); }
};
inline SharedLayout shared_layout(std::int64_t m, std::int64_t n, std::int64_t k) {
  SharedLayout l;
  l.b = l.a + m * k;
  l.c = l.b + k * n;
  l.floats = l.c + m * n;
  return l;
}

// Everything a worker needs besides NCCL's unique id (which rank 0 makes and the parent passes on in `init`).
struct WorkerArgs {
  int rank = 0, world = 1, device = 0;
  std::int64_t m = 1, n = 1, k = 1, block = 1;
  ProcessGrid grid;

  std::vector<std::string> to_argv() const {
    return {std::to_string(rank), std::to_string(world), std::to_string(device), std::to_string(m), std::to_string(n),
            std::to_string(k),    std::to_string(block), std::to_string(grid.rows)};
  }
  // argv without the program name; throws std::invalid_argument on anything else than what to_argv writes.
  static WorkerArgs parse(const std::vector<std::string>& argv) {
    if (argv.size() != 8) throw std::invalid_argument("expected RANK WORLD DEVICE M N K BLOCK GRID_ROWS");
    std::int64_t v[8];
    for (std::size_t i = 0; i < 8; ++i) {
      std::size_t used = 0;
      try {
        v[i] = std::stoll(argv[i], &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == 0 || used != argv[i].size() || v[i] < 0) throw std::invalid_argument("bad argument '" + argv[i] + "'");
    }
    WorkerArgs a;
    a.rank = int(v[0]);
    a.world = int(v[1]);
    a.device = int(v[2]);
    a.m = v[3];
    a.n = v[4];
    a.k = v[5];
    a.block = v[6];
    a.grid.rows = int(v[7]);
    if (a.world < 1 || a.rank >= a.world || a.m < 1 || a.n < 1 || a.k < 1 || a.block < 1 || a.grid.rows < 1 ||
        a.world % a.grid.rows != 0)
      throw std::invalid_argument("inconsistent worker arguments");
    a.grid.cols = a.world / a.grid.rows;
    return a;
  }
};

// The parent's commands, each answered by one reply line. flush: evict the GPU's L2 (l2_flush.hpp's rule) and
// answer once the write has finished, so every timed compute starts from a cold L2 on every GPU.
enum class Op { init, upload, set_output, poison, flush, compute, download, quit };
struct Command {
  explicit Command(Op o = Op::quit) : op(o) {}
  Op op;
  float alpha = 0, beta = 0;  // compute
  std::string id;             // init: NCCL's unique id, in hex
};

inline const char* op_name(Op op) {
  switch (op) {
    case Op::init: return "init";
    case Op::upload: return "upload";
    case Op::set_output: return "set_output";
    case Op::poison: return "poison";
    case Op::flush: return "flush";
    case Op::compute: return "compute";
    case Op::download: return "download";
    case Op::quit: return "quit";
  }
  return "?";
}

// Floats travel as their bits (8 hex digits): exact, and no locale can change them.
inline std::string float_bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  char text[9];
  for (int i = 7; i >= 0; --i, u >>= 4) text[i] = "0123456789abcdef"[u & 15];
  text[8] = '\0';
  return text;
}

inline std::string to_hex(const void* data, std::size_t size) {
  std::string out;
  const auto* bytes = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < size; ++i) {
    out += "0123456789abcdef"[bytes[i] >> 4];
    out += "0123456789abcdef"[bytes[i] & 15];
  }
  return out;
}

// Throws std::invalid_argument unless text is exactly 2*size lowercase or uppercase hex digits.
inline void from_hex(const std::string& text, void* data, std::size_t size) {
  if (text.size() != 2 * size) throw std::invalid_argument("expected " + std::to_string(2 * size) + " hex digits");
  auto digit = [&](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    throw std::invalid_argument("'" + text + "' is not hex");
  };
  auto* bytes = static_cast<unsigned char*>(data);
  for (std::size_t i = 0; i < size; ++i) bytes[i] = static_cast<unsigned char>(digit(text[2 * i]) * 16 + digit(text[2 * i + 1]));
}

inline float float_from_bits(const std::string& text) {
  unsigned char be[4];
  from_hex(text, be, 4);
  const std::uint32_t u = std::uint32_t(be[0]) << 24 | std::uint32_t(be[1]) << 16 | std::uint32_t(be[2]) << 8 | be[3];
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

// One line, without its newline.
inline std::string encode(const Command& c) {
  std::string line = op_name(c.op);
  if (c.op == Op::compute) line += " " + float_bits(c.alpha) + " " + float_bits(c.beta);
  if (c.op == Op::init) line += " " + c.id;
  return line;
}

// Throws std::invalid_argument on a line encode() cannot have written.
inline Command decode_command(const std::string& line) {
  std::vector<std::string> words;
  for (std::size_t start = 0; start <= line.size();) {
    const std::size_t space = line.find(' ', start);
    words.push_back(line.substr(start, space == std::string::npos ? std::string::npos : space - start));
    if (space == std::string::npos) break;
    start = space + 1;
  }
  Command c;
  for (Op op : {Op::init, Op::upload, Op::set_output, Op::poison, Op::flush, Op::compute, Op::download, Op::quit})
    if (words[0] == op_name(op)) {
      c.op = op;
      const std::size_t expected = op == Op::compute ? 3 : op == Op::init ? 2 : 1;
      if (words.size() != expected) break;
      if (op == Op::compute) {
        c.alpha = float_from_bits(words[1]);
        c.beta = float_from_bits(words[2]);
      }
      if (op == Op::init) c.id = words[1];
      return c;
    }
  throw std::invalid_argument("not a command: '" + line + "'");
}

// A reply: "ok" with an optional value (rank 0's first line: NCCL's id; compute: nanoseconds), or "error" and why.
struct Reply {
  bool ok = true;
  std::string text;
};
inline std::string encode(const Reply& r) {
  std::string text = r.text;
  for (char& ch : text)
    if (ch == '\n' || ch == '\r') ch = ' ';  // one line, whatever a library's message holds
  return (r.ok ? "ok" : "error") + (text.empty() ? "" : " " + text);
}
inline Reply decode_reply(const std::string& line) {
  for (const char* word : {"ok", "error"}) {
    const std::size_t n = std::strlen(word);
    if (line.compare(0, n, word) == 0 && (line.size() == n || line[n] == ' '))
      return {word[0] == 'o', line.size() > n ? line.substr(n + 1) : ""};
  }
  throw std::invalid_argument("not a reply: '" + line.substr(0, 200) + "'");
}

}  // namespace matcompare::gpu::mp
