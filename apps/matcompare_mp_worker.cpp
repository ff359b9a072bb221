// matcompare-mp-worker: one rank of gpu/cublasmp-fp32. The benchmark process starts one per GPU; each joins an NCCL
// communicator, holds its block-cyclic parts of A, B and C on its GPU and runs cublasMpGemm when told to, answering
// every command on its socket (mp_protocol.hpp). Not meant to be run by hand.
#include <cublasmp.h>
#include <cuda_runtime.h>
#include <nccl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "../src/gpu/multi/mp_protocol.hpp"
#include "../src/gpu/runtime/l2_flush.hpp"

namespace {

namespace mp = matcompare::gpu::mp;

void check(cudaError_t rc, const char* what) {
  if (rc != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(rc));
}
void check(ncclResult_t rc, const char* what) {
  if (rc != ncclSuccess) throw std::runtime_error(std::string(what) + ": " + ncclGetErrorString(rc));
}
const char* status_name(cublasMpStatus_t s) {
  switch (s) {
    case CUBLASMP_STATUS_SUCCESS: return "success";
    case CUBLASMP_STATUS_NOT_INITIALIZED: return "not initialized";
    case CUBLASMP_STATUS_ALLOCATION_FAILED: return "allocation failed";
    case CUBLASMP_STATUS_INVALID_VALUE: return "invalid value";
    case CUBLASMP_STATUS_ARCHITECTURE_MISMATCH: return "architecture mismatch";
    case CUBLASMP_STATUS_EXECUTION_FAILED: return "execution failed";
    case CUBLASMP_STATUS_INTERNAL_ERROR: return "internal error";
    case CUBLASMP_STATUS_NOT_SUPPORTED: return "not supported";
  }
  return "unknown status";
}
void check(cublasMpStatus_t rc, const char* what) {
  if (rc != CUBLASMP_STATUS_SUCCESS)
    throw std::runtime_error(std::string(what) + ": " + status_name(rc) + " (" + std::to_string(int(rc)) + ")");
}

// The command socket, a line at a time.
class Channel {
 public:
  std::string read_line() {
    while (pending_.find('\n') == std::string::npos) {
      char buffer[4096];
      const ssize_t n = read(mp::kSocketFd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) throw std::runtime_error("the benchmark process closed the socket");
      pending_.append(buffer, std::size_t(n));
    }
    const std::size_t newline = pending_.find('\n');
    std::string line = pending_.substr(0, newline);
    pending_.erase(0, newline + 1);
    return line;
  }
  void write_line(const mp::Reply& reply) {
    const std::string line = mp::encode(reply) + "\n";
    for (std::size_t sent = 0; sent < line.size();) {
      const ssize_t n = send(mp::kSocketFd, line.data() + sent, line.size() - sent, MSG_NOSIGNAL);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) throw std::runtime_error("cannot answer the benchmark process");
      sent += std::size_t(n);
    }
  }

 private:
  std::string pending_;
};

// One matrix of the cuBLASMp problem: its whole column-major form in the shared mapping and this rank's part of it
// on the GPU.
struct Distributed {
  float* whole = nullptr;
  std::int64_t rows = 0, cols = 0, ld = 0;
  mp::LocalPart part;
  float* device = nullptr;
  cublasMpMatrixDescriptor_t desc = nullptr;
};

class Rank {
 public:
  Rank(const mp::WorkerArgs& args, Channel& channel) : args_(args), channel_(channel) {}
  ~Rank() {
    // Teardown in the reverse order of set-up; failures here cannot be reported any more, the process is ending.
    for (Distributed* d : {&a_, &b_, &c_}) {
      if (d->desc) cublasMpMatrixDescriptorDestroy(d->desc);
      if (d->device) cudaFree(d->device);
    }
    if (d_work_) cudaFree(d_work_);
    if (flush_) cudaFree(flush_);
    if (staging_) cudaFreeHost(staging_);
    if (grid_) cublasMpGridDestroy(grid_);
    if (handle_) cublasMpDestroy(handle_);
    // After a failure a peer may be gone or stuck: abort instead of the collective teardown that would wait for it.
    if (comm_) abandoned_ ? ncclCommAbort(comm_) : ncclCommDestroy(comm_);
    if (start_) cudaEventDestroy(start_);
    if (stop_) cudaEventDestroy(stop_);
    if (stream_) cudaStreamDestroy(stream_);
    if (shared_) munmap(shared_, shared_bytes_);
  }

  void abandon() { abandoned_ = true; }

  void run() {
    map_shared();
    // Rank 0 makes NCCL's unique id (needs no GPU) and opens the conversation with it; the parent hands it to all.
    if (args_.rank == 0) {
      ncclUniqueId id;
      check(ncclGetUniqueId(&id), "ncclGetUniqueId");
      channel_.write_line({true, mp::to_hex(&id, sizeof id)});
    }
    for (;;) {
      const mp::Command command = mp::decode_command(channel_.read_line());
      if (command.op == mp::Op::quit) return;
      channel_.write_line({true, execute(command)});
    }
  }

 private:
  void map_shared() {
    const mp::SharedLayout layout = mp::shared_layout(args_.m, args_.n, args_.k);
    struct stat st {};
    if (fstat(mp::kSharedFd, &st) != 0 || std::size_t(st.st_size) != layout.bytes())
      throw std::runtime_error("the shared matrices are missing or have the wrong size");
    void* map = mmap(nullptr, layout.bytes(), PROT_READ | PROT_WRITE, MAP_SHARED, mp::kSharedFd, 0);
    if (map == MAP_FAILED) throw std::runtime_error(std::string("mmap of the shared matrices: ") + strerror(errno));
    shared_ = static_cast<float*>(map);
    shared_bytes_ = layout.bytes();
    // Row-major C = A*B is column-major C^T = B^T * A^T, and a row-major matrix read column-major is its
    // transpose: cuBLASMp's A is row-major B as N x K (ld N), its B is row-major A as K x M (ld K), its C is
    // row-major C as N x M (ld N). Nothing is transposed in memory.
    whole(a_, shared_ + layout.b, args_.n, args_.k);
    whole(b_, shared_ + layout.a, args_.k, args_.m);
    whole(c_, shared_ + layout.c, args_.n, args_.m);
  }

  // A column-major rows x cols matrix packed without padding (ld = rows) at `data`.
  static void whole(Distributed& d, float* data, std::int64_t rows, std::int64_t cols) {
    d.whole = data;
    d.rows = rows;
    d.cols = cols;
    d.ld = rows;
  }

  std::string execute(const mp::Command& command) {
    switch (command.op) {
      case mp::Op::init: set_up(command.id); return "";
      case mp::Op::upload: to_device(a_); to_device(b_); return "";
      case mp::Op::set_output: to_device(c_); return "";
      case mp::Op::poison:
        // All bits set is a NaN: a beta = 0 product that reads C, or leaves an element unwritten, shows.
        check(cudaMemsetAsync(c_.device, 0xff, bytes(c_), stream_), "cudaMemsetAsync (poison C)");
        check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize");
        return "";
      case mp::Op::flush: flush_l2(); return "";
      case mp::Op::compute: return std::to_string(std::llround(gemm(command.alpha, command.beta) * 1e6));
      case mp::Op::download: from_device(c_); return "";
      case mp::Op::quit: break;
    }
    throw std::logic_error("unexpected command");
  }

  void set_up(const std::string& id_hex) {
    ncclUniqueId id;
    mp::from_hex(id_hex, &id, sizeof id);
    check(cudaSetDevice(args_.device), "cudaSetDevice");
    check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
    check(cudaEventCreate(&start_), "cudaEventCreate");
    check(cudaEventCreate(&stop_), "cudaEventCreate");
    check(ncclCommInitRank(&comm_, args_.world, id, args_.rank), "ncclCommInitRank");
    check(cublasMpCreate(&handle_, stream_), "cublasMpCreate");
    check(cublasMpGridCreate(args_.grid.rows, args_.grid.cols, CUBLASMP_GRID_LAYOUT_COL_MAJOR, comm_, &grid_),
          "cublasMpGridCreate");
    std::int64_t largest = 1;
    for (Distributed* d : {&a_, &b_, &c_}) {
      d->part = mp::local_part(d->rows, d->cols, args_.block, args_.grid, args_.rank);
      check(cudaMalloc(reinterpret_cast<void**>(&d->device), bytes(*d)), "cudaMalloc (local part)");
      check(cublasMpMatrixDescriptorCreate(d->rows, d->cols, args_.block, args_.block, 0, 0, d->part.ld, CUDA_R_32F,
                                           grid_, &d->desc),
            "cublasMpMatrixDescriptorCreate");
      largest = std::max(largest, d->part.elements());
    }
    // Parts pass through pinned memory: packed on the host, then one copy each way.
    check(cudaMallocHost(reinterpret_cast<void**>(&staging_), std::size_t(largest) * sizeof(float)),
          "cudaMallocHost (staging)");
    const float one = 1.0f;
    check(cublasMpGemm_bufferSize(handle_, CUBLAS_OP_N, CUBLAS_OP_N, args_.n, args_.m, args_.k, &one, a_.device, 1, 1,
                                  a_.desc, b_.device, 1, 1, b_.desc, &one, c_.device, 1, 1, c_.desc,
                                  CUBLAS_COMPUTE_32F, &device_work_bytes_, &host_work_bytes_),
          "cublasMpGemm_bufferSize");
    if (device_work_bytes_) check(cudaMalloc(&d_work_, device_work_bytes_), "cudaMalloc (cuBLASMp workspace)");
    host_work_.resize(host_work_bytes_);
    // cuBLASMp starts up inside its first gemm, which takes seconds. Left to the first timed call, that start-up
    // read as the cost of the harness's few-row trials, and a full run was planned at hundreds of times its length
    // (bench/NOTES.md, "1× H100, both multi-GPU rows on one GPU").
    for (Distributed* d : {&a_, &b_, &c_}) check(cudaMemsetAsync(d->device, 0, bytes(*d), stream_), "cudaMemsetAsync");
    gemm(1.0f, 0.0f);
  }

  // Evicts this GPU's L2 as the single-GPU rows do between samples: a buffer of twice the L2 (allocated at the first
  // flush) written on the rank's stream with a new value each time. The reply waits for the write, since the
  // parent's synchronize() has nothing to wait on.
  void flush_l2() {
    if (!flush_) {
      check(matcompare::gpu::l2_flush_bytes(args_.device, flush_bytes_), "cudaDeviceGetAttribute (L2 size)");
      check(cudaMalloc(&flush_, flush_bytes_), "cudaMalloc (L2 flush buffer)");
    }
    check(cudaMemsetAsync(flush_, ++flush_value_, flush_bytes_, stream_), "cudaMemsetAsync (L2 flush)");
    check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize (L2 flush)");
  }

  // Milliseconds of this rank's cublasMpGemm, by CUDA events around it on its stream.
  double gemm(float alpha, float beta) {
    check(cudaEventRecord(start_, stream_), "cudaEventRecord");
    check(cublasMpGemm(handle_, CUBLAS_OP_N, CUBLAS_OP_N, args_.n, args_.m, args_.k, &alpha, a_.device, 1, 1, a_.desc,
                       b_.device, 1, 1, b_.desc, &beta, c_.device, 1, 1, c_.desc, CUBLAS_COMPUTE_32F, d_work_,
                       device_work_bytes_, host_work_.data(), host_work_bytes_),
          "cublasMpGemm");
    check(cudaEventRecord(stop_, stream_), "cudaEventRecord");
    check(cudaEventSynchronize(stop_), "cudaEventSynchronize (cublasMpGemm)");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
    return ms;
  }

  static std::size_t bytes(const Distributed& d) { return std::size_t(std::max<std::int64_t>(d.part.elements(), 1)) * sizeof(float); }

  void to_device(Distributed& d) {
    if (d.part.elements() == 0) return;
    mp::copy_part(d.whole, d.ld, staging_, d.part, args_.block, args_.grid, args_.rank, true);
    check(cudaMemcpyAsync(d.device, staging_, bytes(d), cudaMemcpyHostToDevice, stream_), "cudaMemcpyAsync (upload)");
    check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize (upload)");
  }
  void from_device(Distributed& d) {
    if (d.part.elements() == 0) return;
    check(cudaMemcpyAsync(staging_, d.device, bytes(d), cudaMemcpyDeviceToHost, stream_), "cudaMemcpyAsync (download)");
    check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize (download)");
    mp::copy_part(d.whole, d.ld, staging_, d.part, args_.block, args_.grid, args_.rank, false);
  }

  mp::WorkerArgs args_;
  Channel& channel_;
  float* shared_ = nullptr;
  std::size_t shared_bytes_ = 0;
  Distributed a_, b_, c_;
  cudaStream_t stream_ = nullptr;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
  ncclComm_t comm_ = nullptr;
  cublasMpHandle_t handle_ = nullptr;
  cublasMpGrid_t grid_ = nullptr;
  float* staging_ = nullptr;
  void* d_work_ = nullptr;
  std::size_t device_work_bytes_ = 0, host_work_bytes_ = 0;
  std::vector<unsigned char> host_work_;
  void* flush_ = nullptr;
  std::size_t flush_bytes_ = 0;
  unsigned char flush_value_ = 0;
  bool abandoned_ = false;
};

}  // namespace

int main(int argc, char** argv) {
  Channel channel;
  std::unique_ptr<Rank> rank;
  try {
    rank = std::make_unique<Rank>(mp::WorkerArgs::parse(std::vector<std::string>(argv + 1, argv + argc)), channel);
    rank->run();
    return 0;
  } catch (const std::exception& e) {
    // The parent reads this as the rank's failure, before the teardown (which a broken peer could slow down);
    // stderr keeps it too when the parent is gone.
    std::fprintf(stderr, "matcompare-mp-worker: %s\n", e.what());
    if (rank) rank->abandon();
    try {
      channel.write_line({false, e.what()});
    } catch (const std::exception&) {
      return 1;
    }
    return 1;
  }
}
