// A stand-in for matcompare-mp-worker that needs no GPU: it speaks the same protocol and computes its own
// block-cyclic part of C^T on the CPU from the shared A and B, so the CPU tests cover the parent side, the layout
// and the failure paths. MATCOMPARE_FAKE_WORKER_FAIL="OP:RANK:HOW" (HOW: error, exit or hang) injects a failure.
// MATCOMPARE_FAKE_WORKER_LOG=FILE: every rank appends "RANK OP" to FILE for each command it receives, so a test can
// tell which commands reached which rank (flush has nothing to evict here: the log is all it leaves).
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "../src/gpu/multi/mp_protocol.hpp"

namespace mp = matcompare::gpu::mp;

namespace {

std::string pending;

bool read_line(std::string& line) {
  while (pending.find('\n') == std::string::npos) {
    char buffer[4096];
    const ssize_t n = read(mp::kSocketFd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    pending.append(buffer, std::size_t(n));
  }
  line = pending.substr(0, pending.find('\n'));
  pending.erase(0, line.size() + 1);
  return true;
}

void reply(const mp::Reply& r) {
  const std::string line = mp::encode(r) + "\n";
  if (send(mp::kSocketFd, line.data(), line.size(), MSG_NOSIGNAL) != ssize_t(line.size())) std::exit(4);
}

// Appends "RANK OP" to MATCOMPARE_FAKE_WORKER_LOG, when set, in one write: the ranks share the file (O_APPEND).
void record(const char* op, int rank) {
  const char* path = std::getenv("MATCOMPARE_FAKE_WORKER_LOG");
  if (!path) return;
  const int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) std::exit(6);
  const std::string line = std::to_string(rank) + " " + op + "\n";
  const bool whole = write(fd, line.data(), line.size()) == ssize_t(line.size());
  close(fd);
  if (!whole) std::exit(6);
}

// Carries out the failure asked for at this op and rank, if any; true when it was an error reply.
bool failed(const char* op, int rank) {
  const char* spec = std::getenv("MATCOMPARE_FAKE_WORKER_FAIL");
  if (!spec) return false;
  const std::string prefix = std::string(op) + ":" + std::to_string(rank) + ":";
  const std::string text = spec;
  if (text.compare(0, prefix.size(), prefix) != 0) return false;
  const std::string how = text.substr(prefix.size());
  if (how == "exit") std::exit(3);
  if (how == "hang")
    for (;;) pause();
  reply({false, std::string("injected failure\nat ") + op});
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  const mp::WorkerArgs args = mp::WorkerArgs::parse(std::vector<std::string>(argv + 1, argv + argc));
  const mp::SharedLayout layout = mp::shared_layout(args.m, args.n, args.k);
  void* map = mmap(nullptr, layout.bytes(), PROT_READ | PROT_WRITE, MAP_SHARED, mp::kSharedFd, 0);
  if (map == MAP_FAILED) return 5;
  float* shared = static_cast<float*>(map);
  // This rank's part of C^T (N x M column-major, the row-major C read column-major), as the real worker holds it.
  const mp::LocalPart part = mp::local_part(args.n, args.m, args.block, args.grid, args.rank);
  std::vector<float> c(std::size_t(std::max<std::int64_t>(part.elements(), 1)));
  if (args.rank == 0) reply({true, std::string(256, '0')});
  std::string line;
  while (read_line(line)) {
    const mp::Command command = mp::decode_command(line);
    const char* op = mp::op_name(command.op);
    record(op, args.rank);
    if (command.op == mp::Op::quit) break;
    if (failed(op, args.rank)) continue;
    std::string value;
    if (command.op == mp::Op::set_output)
      mp::copy_part(shared + layout.c, args.n, c.data(), part, args.block, args.grid, args.rank, true);
    if (command.op == mp::Op::poison) std::fill(c.begin(), c.end(), std::numeric_limits<float>::quiet_NaN());
    if (command.op == mp::Op::download)
      mp::copy_part(shared + layout.c, args.n, c.data(), part, args.block, args.grid, args.rank, false);
    if (command.op == mp::Op::compute) {
      for (std::int64_t lj = 0; lj < part.cols; ++lj)
        for (std::int64_t li = 0; li < part.rows; ++li) {
          const std::int64_t col = mp::global_index(li, args.block, args.grid.row_of(args.rank), args.grid.rows);
          const std::int64_t row = mp::global_index(lj, args.block, args.grid.col_of(args.rank), args.grid.cols);
          double sum = 0;
          for (std::int64_t k = 0; k < args.k; ++k)
            sum += double(shared[layout.a + row * args.k + k]) * double(shared[layout.b + k * args.n + col]);
          float& out = c[std::size_t(lj * part.ld + li)];
          out = float(command.alpha * sum + (command.beta == 0.0f ? 0.0 : double(command.beta) * out));
        }
      value = std::to_string((args.rank + 1) * 1000);  // nanoseconds: the slowest rank is the last
    }
    reply({true, value});
  }
  return 0;
}
