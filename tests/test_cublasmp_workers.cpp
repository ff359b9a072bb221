// gpu/cublasmp-fp32's parts that need no GPU: the block-cyclic arithmetic, the worker protocol, and the parent
// side of the workspace driven by tests/fake_mp_worker.cpp (results, timing, failures, no process left behind).
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <string>

#include "../src/gpu/multi/mp_protocol.hpp"
#include "../src/gpu/multi/mp_workspace.hpp"
#include "backend_checks.hpp"

using namespace matcompare;
namespace mp = matcompare::gpu::mp;

namespace {

std::vector<int> first_devices(int count) {
  std::vector<int> d;
  for (int i = 0; i < count; ++i) d.push_back(i);
  return d;
}

// Every child of this process has been reaped.
bool no_children_left() { return waitpid(-1, nullptr, WNOHANG) == -1 && errno == ECHILD; }

struct ScopedEnv {
  const char* name;
  ScopedEnv(const char* n, const char* value) : name(n) { setenv(n, value, 1); }
  ~ScopedEnv() { unsetenv(name); }
};

}  // namespace

TEST_CASE("block-cyclic: grids, local counts and the copy of each part cover every element once") {
  CHECK(mp::choose_grid(1).rows == 1);
  CHECK(mp::choose_grid(2).cols == 2);
  CHECK((mp::choose_grid(4).rows == 2 && mp::choose_grid(4).cols == 2));
  CHECK((mp::choose_grid(6).rows == 2 && mp::choose_grid(6).cols == 3));
  CHECK((mp::choose_grid(7).rows == 1 && mp::choose_grid(7).cols == 7));
  const mp::ProcessGrid g23{2, 3};
  CHECK((g23.row_of(3) == 1 && g23.col_of(3) == 1));
  for (std::int64_t n : {1, 5, 7, 64, 100, 1025})
    for (std::int64_t nb : {1, 3, 32, 1024})
      for (int procs : {1, 2, 3}) {
        std::int64_t total = 0;
        std::set<std::int64_t> seen;
        for (int p = 0; p < procs; ++p) {
          const std::int64_t count = mp::local_count(n, nb, p, procs);
          total += count;
          for (std::int64_t l = 0; l < count; ++l) seen.insert(mp::global_index(l, nb, p, procs));
        }
        CHECK(total == n);
        CHECK(std::int64_t(seen.size()) == n);
        CHECK(*seen.rbegin() == n - 1);
      }
  // The edge: at most 1024, and each split dimension reaches every process when it can.
  CHECK(mp::choose_block(4096, 4096, 4096, {1, 2}) == 1024);
  CHECK(mp::choose_block(100, 100, 100, {1, 2}) == 50);
  CHECK(mp::choose_block(1, 300, 5, {1, 2}) == 3);  // M = 1 < 2 processes: left out of the rule
  CHECK(mp::choose_block(7, 7, 7, {1, 1}) == 1024);
  // Splitting a 7 x 10 matrix over a 2 x 3 grid in blocks of 2 and gathering it back gives the matrix.
  const std::int64_t rows = 7, cols = 10, ld = 9, block = 2;
  std::vector<float> whole(std::size_t(ld * cols)), back(whole.size(), -1.0f);
  for (std::size_t i = 0; i < whole.size(); ++i) whole[i] = float(i);
  std::int64_t elements = 0;
  for (int rank = 0; rank < g23.size(); ++rank) {
    const mp::LocalPart part = mp::local_part(rows, cols, block, g23, rank);
    elements += part.elements();
    CHECK(part.ld >= 1);
    std::vector<float> local(std::size_t(std::max<std::int64_t>(part.elements(), 1)));
    mp::copy_part(whole.data(), ld, local.data(), part, block, g23, rank, true);
    mp::copy_part(back.data(), ld, local.data(), part, block, g23, rank, false);
  }
  CHECK(elements == rows * cols);
  for (std::int64_t j = 0; j < cols; ++j)
    for (std::int64_t i = 0; i < ld; ++i) CHECK(back[std::size_t(j * ld + i)] == (i < rows ? whole[std::size_t(j * ld + i)] : -1.0f));
}

TEST_CASE("worker protocol: commands, replies and arguments survive encoding exactly") {
  for (float alpha : {0.5f, -1.5f, 0.0f, -0.0f, 1e-38f, std::numeric_limits<float>::infinity()}) {
    mp::Command c{mp::Op::compute};
    c.alpha = alpha;
    c.beta = -alpha;
    const mp::Command back = mp::decode_command(mp::encode(c));
    CHECK(back.op == mp::Op::compute);
    CHECK(mp::float_bits(back.alpha) == mp::float_bits(alpha));
    CHECK(mp::float_bits(back.beta) == mp::float_bits(-alpha));
  }
  mp::Command init{mp::Op::init};
  const unsigned char id[4] = {0x00, 0x7f, 0x80, 0xff};
  init.id = mp::to_hex(id, sizeof id);
  CHECK(mp::encode(init) == "init 007f80ff");
  unsigned char id_back[4];
  mp::from_hex(mp::decode_command(mp::encode(init)).id, id_back, sizeof id_back);
  CHECK(std::equal(id, id + 4, id_back));
  for (mp::Op op : {mp::Op::upload, mp::Op::set_output, mp::Op::poison, mp::Op::flush, mp::Op::download, mp::Op::quit})
    CHECK(mp::decode_command(mp::encode(mp::Command{op})).op == op);
  for (const char* bad : {"", "upload 1", "compute 3f000000", "compute 3f00000g 00000000", "init", "launch"})
    CHECK_THROWS_AS(mp::decode_command(bad), std::invalid_argument);
  CHECK(mp::encode(mp::Reply{false, "two\nlines"}) == "error two lines");
  CHECK(mp::decode_reply("ok").ok);
  CHECK(mp::decode_reply("ok 1234").text == "1234");
  CHECK_FALSE(mp::decode_reply("error out of memory").ok);
  CHECK_THROWS_AS(mp::decode_reply("okay"), std::invalid_argument);
  mp::WorkerArgs a;
  a.rank = 3;
  a.world = 6;
  a.device = 5;
  a.m = 17;
  a.n = 33;
  a.k = 65;
  a.block = 8;
  a.grid = mp::choose_grid(6);
  const mp::WorkerArgs b = mp::WorkerArgs::parse(a.to_argv());
  CHECK((b.rank == 3 && b.world == 6 && b.device == 5 && b.m == 17 && b.n == 33 && b.k == 65 && b.block == 8 &&
         b.grid.rows == 2 && b.grid.cols == 3));
  std::vector<std::string> wrong = a.to_argv();
  wrong[0] = "6";  // rank == world
  CHECK_THROWS_AS(mp::WorkerArgs::parse(wrong), std::invalid_argument);
  wrong = a.to_argv();
  wrong[7] = "4";  // 4 does not divide 6
  CHECK_THROWS_AS(mp::WorkerArgs::parse(wrong), std::invalid_argument);
  CHECK_THROWS_AS(mp::WorkerArgs::parse({"1"}), std::invalid_argument);
}

TEST_CASE("the workers' workspace matches the float64 reference on odd shapes, 1 to 4 ranks, any alpha and beta") {
  for (int ranks : {1, 2, 3, 4}) {
    const std::vector<int> devices = first_devices(ranks);
    for (const GemmShape& shape : matcompare_test::odd_shapes())
      for (const auto& scaling : matcompare_test::scalings())
        matcompare_test::check_gemm_against_reference(
            "fake workers x" + std::to_string(ranks), Precision::fp32,
            [&](float alpha, const MatrixF& a, const MatrixF& b, float beta, MatrixF& c) {
              auto ws = gpu::make_mp_workspace(MATCOMPARE_FAKE_MP_WORKER, devices, shape);
              ws->upload(a, b);
              if (beta != 0.0f)
                ws->set_output(c);
              else
                ws->poison_output(shape);
              ws->compute(alpha, beta);
              ws->download(c);
            },
            shape, scaling);
  }
  CHECK(no_children_left());
}

TEST_CASE("the workers' stopwatch is the slowest rank's time; download_rows reads the shared C") {
  auto ws = gpu::make_mp_workspace(MATCOMPARE_FAKE_MP_WORKER, {0, 1, 2}, {20, 9, 4});
  const MatrixF a = MatrixF::random(20, 4, 1), b = MatrixF::random(4, 9, 2);
  ws->upload(a, b);
  auto watch = ws->stopwatch();
  watch->start();
  ws->compute(1.0f, 0.0f);
  watch->stop();
  CHECK(watch->elapsed_ms() == doctest::Approx(0.003));  // rank 2's 3000 ns
  MatrixF all(20, 9), rows(2, 9);
  ws->download(all);
  ws->download_rows({19, 3}, {20, 9, 4}, rows);
  for (std::size_t j = 0; j < 9; ++j) CHECK((rows(0, j) == all(19, j) && rows(1, j) == all(3, j)));
}

TEST_CASE("a worker that fails, dies or hangs is one error naming its rank and call, and no worker is left") {
  const GemmShape shape{30, 20, 10};
  const MatrixF a = MatrixF::random(30, 10, 3), b = MatrixF::random(10, 20, 4);
  {
    ScopedEnv fail("MATCOMPARE_FAKE_WORKER_FAIL", "compute:1:error");
    auto ws = gpu::make_mp_workspace(MATCOMPARE_FAKE_MP_WORKER, {0, 3}, shape);
    ws->upload(a, b);
    CHECK_THROWS_WITH_AS(ws->compute(1.0f, 0.0f),
                         "cuBLASMp worker rank 1 (GPU 3) during compute: injected failure at compute",
                         std::runtime_error);
    CHECK_THROWS_WITH_AS(ws->compute(1.0f, 0.0f), doctest::Contains("already failed"), std::runtime_error);
  }
  CHECK(no_children_left());
  {
    ScopedEnv fail("MATCOMPARE_FAKE_WORKER_FAIL", "upload:0:exit");
    auto ws = gpu::make_mp_workspace(MATCOMPARE_FAKE_MP_WORKER, {0, 1}, shape);
    CHECK_THROWS_WITH_AS(ws->upload(a, b), "cuBLASMp worker rank 0 (GPU 0) during upload: exited with status 3",
                         std::runtime_error);
  }
  CHECK(no_children_left());
  {
    ScopedEnv fail("MATCOMPARE_FAKE_WORKER_FAIL", "init:1:hang");
    ScopedEnv timeout(gpu::kCublasMpTimeoutVariable, "1");
    CHECK_THROWS_WITH_AS(gpu::make_mp_workspace(MATCOMPARE_FAKE_MP_WORKER, {0, 1}, shape),
                         doctest::Contains("rank 1 (GPU 1) during init: did not answer within 1 s"), std::runtime_error);
  }
  CHECK(no_children_left());
  CHECK_THROWS_WITH_AS(gpu::make_mp_workspace("/nonexistent/matcompare-mp-worker", {0}, shape),
                       doctest::Contains("cannot start the cuBLASMp worker"), std::runtime_error);
  {
    ScopedEnv bad(gpu::kCublasMpBlockVariable, "0");
    CHECK_THROWS_WITH_AS(gpu::cublasmp_block_override(), doctest::Contains("from 1 to 65536"), std::invalid_argument);
  }
  CHECK(no_children_left());
}

TEST_CASE("flush_cache reaches every worker, before the compute it precedes; a flush that fails names its rank") {
  char log_path[] = "/tmp/matcompare-fake-workers-XXXXXX";
  const int fd = mkstemp(log_path);
  REQUIRE(fd >= 0);
  close(fd);
  {
    ScopedEnv log("MATCOMPARE_FAKE_WORKER_LOG", log_path);
    auto ws = gpu::make_mp_workspace(MATCOMPARE_FAKE_MP_WORKER, first_devices(4), {8, 8, 8});
    ws->upload(MatrixF::random(8, 8, 5), MatrixF::random(8, 8, 6));
    for (int sample = 0; sample < 3; ++sample) {  // as the harness times a sample: flush, then compute
      ws->flush_cache();
      ws->synchronize();
      ws->compute(1.0f, 0.0f);
    }
  }  // the workers have quit: the log is complete
  std::map<int, std::string> told;  // each rank's commands, in the order it received them
  {
    std::ifstream in(log_path);
    int rank = 0;
    std::string op;
    while (in >> rank >> op) told[rank] += (told[rank].empty() ? "" : " ") + op;
  }
  unlink(log_path);
  CHECK(told.size() == 4);
  for (int rank = 0; rank < 4; ++rank) {
    CAPTURE(rank);
    CHECK(told[rank] == "init upload flush compute flush compute flush compute quit");
  }
  CHECK(no_children_left());
  {
    ScopedEnv fail("MATCOMPARE_FAKE_WORKER_FAIL", "flush:2:error");
    auto ws = gpu::make_mp_workspace(MATCOMPARE_FAKE_MP_WORKER, first_devices(3), {8, 8, 8});
    CHECK_THROWS_WITH_AS(ws->flush_cache(), "cuBLASMp worker rank 2 (GPU 2) during flush: injected failure at flush",
                         std::runtime_error);
  }
  CHECK(no_children_left());
}
