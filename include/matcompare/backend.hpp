#pragma once
// One interface for every algorithm, CPU or GPU: C = α·A·B + β·C on row-major matrices of any
// shape M×K · K×N. Data is moved into a Workspace once, so compute can be timed alone and the
// whole trip (upload, compute, download) can be timed too (seed 004: kernel vs total time).
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "matcompare/error_metrics.hpp"
#include "matcompare/layout.hpp"
#include "matcompare/matrix.hpp"

namespace matcompare {

enum class DeviceKind { cpu, gpu };
std::string to_string(DeviceKind d);  // throws std::invalid_argument for a value that is neither cpu nor gpu

struct GemmShape {
  std::int64_t m = 0, n = 0, k = 0;
  Layout layout = Layout::nn;  // which operands are stored transposed (layout.hpp)
  double flops() const { return 2.0 * double(m) * double(n) * double(k); }
};
std::string to_string(const GemmShape& s);  // "MxNxK", and " TN" after it for a layout other than NN

struct BackendInfo {
  std::string name;       // "cpu/gold", "gpu/cublas-fp32", …
  DeviceKind device = DeviceKind::cpu;
  std::string seed;       // the seed step(s) it implements, e.g. "003 Gold; 004 ijk"
  std::string idea;       // one line: what it adds over its predecessor
  Precision precision = Precision::fp32;
  bool vendor = false;    // the row other rows on its device are compared with
  // The vendor row of its precision on its device (cuBLAS TF32 for TF32 rows); every vendor row is one too.
  bool precision_vendor = false;
  // A vendor library's single-device row (OpenBLAS, BLIS, oneMKL, cuBLAS, cuBLASLt, CUTLASS): a candidate for the
  // best vendor of its precision on its device, which every row is also compared with. The two baselines above are
  // vendor libraries too.
  bool vendor_library = false;
  // Runs on every GPU of selected_gpus() at once (cuBLASXt, cuBLASMp); its result says how many and its speedup
  // over the single-GPU vendor.
  bool multi_gpu = false;
  // Computes on matrices in host memory, moving tiles to the GPUs itself (cuBLASXt): its compute time is end to
  // end by nature, and upload() keeps references to A and B instead of copying them.
  bool host_resident = false;
  // Computes every Layout, each on its operands as stored (a transposed copy made outside the timed region would be a
  // different computation); otherwise NN only, and other layouts read unavailable.
  bool all_layouts = false;
};

// Thrown by Backend::prepare when a shape does not fit the device (its memory, its index range): the row is
// reported unavailable with this message, since no run on this machine could give it a figure.
class ResourceLimit : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Availability {
  bool available = false;
  std::string reason;     // why not, when unavailable
};

// Measures the duration of work issued to a device: a steady clock on the CPU, events on the GPU.
class Stopwatch {
 public:
  virtual ~Stopwatch() = default;
  virtual void start() = 0;
  virtual void stop() = 0;
  virtual double elapsed_ms() = 0;  // waits for the stopped work to finish
};

// Matrices resident where a backend computes, prepared for one shape. Not thread-safe.
// A device's clock: now and the most it may run at, in MHz.
struct ClockReading {
  double mhz = 0, max_mhz = 0;
  bool known() const { return mhz > 0 && max_mhz > 0; }
};

class Workspace {
 public:
  virtual ~Workspace() = default;
  // Copies A and B in, stored as the workspace's layout says (stored_a_rows() and the rest); a host-resident backend
  // (BackendInfo::host_resident) keeps references to them instead, so they must outlive the workspace's computations.
  virtual void upload(const MatrixF& a, const MatrixF& b) = 0;
  // Copies C in. Only needed when β ≠ 0: with β = 0, C is output only.
  virtual void set_output(const MatrixF& c) = 0;
  // C = α·A·B + β·C on the resident data. With β = 0, C is not read (BLAS convention).
  virtual void compute(float alpha, float beta) = 0;
  // Copies the resident C out into c, which must have the workspace's shape.
  virtual void download(MatrixF& c) = 0;
  // Fills the resident C with NaN, so that a β = 0 run that reads C or leaves an element unwritten shows. The
  // default uploads a NaN matrix of `shape` (std::invalid_argument naming it when M, N or K is below 1); workspaces
  // override it to avoid that host copy.
  virtual void poison_output(const GemmShape& shape);
  // Copies the given rows of the resident C into out (rows.size() x N). `shape` must be the workspace's. Before
  // reading anything it throws std::out_of_range naming the first row outside [0, M) and the workspace's rows,
  // std::invalid_argument naming `shape` when it is not the workspace's or `out` when it is not rows.size() x N.
  // The default downloads all of C (it knows the workspace's shape only through download(), which refuses another
  // M x N); workspaces override it so a problem verified on a sample of rows never needs a host copy of C.
  virtual void download_rows(const std::vector<std::int64_t>& rows, const GemmShape& shape, MatrixF& out);
  virtual void flush_cache() = 0;                // evicts the inputs from the last-level cache
  virtual void synchronize() = 0;                // waits for all issued work
  virtual std::unique_ptr<Stopwatch> stopwatch() = 0;
  // What this workspace runs for its shape where the backend chooses among kernels (cuBLASLt's algorithm and tile,
  // a tuned table's variant); "" where there is one path. Recorded in the result.
  virtual std::string kernel() const { return ""; }
  // The clock the device runs at now, read right after a timed run; {0, 0} where unknown (the CPU, a GPU without
  // NVML). A power or thermal limit lowers a GPU's clock under sustained load, and the harness drops samples taken
  // at a lowered clock (see kThrottledClockFraction in src/core/sampling.hpp).
  virtual ClockReading clock() { return {}; }
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual const BackendInfo& info() const = 0;
  virtual Availability availability() const = 0;
  // Whether it can compute `layout` here: availability(), and for a layout other than NN, BackendInfo::all_layouts.
  Availability availability(Layout layout) const;
  // Allocates storage for one shape; throws std::runtime_error (e.g. not enough device memory).
  virtual std::unique_ptr<Workspace> prepare(const GemmShape& shape) const = 0;

  // The whole computation on host matrices: C = α·op(A)·op(B) + β·C, A and B stored as `layout` says. With β = 0 the
  // old C is never read: the workspace's C is poisoned (NaN) instead, so a kernel that reads it shows. Throws on
  // mismatched shapes or when the backend is unavailable (for this layout).
  void gemm(float alpha, const MatrixF& a, const MatrixF& b, float beta, MatrixF& c, Layout layout = Layout::nn) const;
};

// Throws std::invalid_argument unless op(A) is M×K, op(B) is K×N and C is M×N with M, N, K ≥ 1 (A stored K×M where
// `layout` transposes it, B stored N×K likewise).
GemmShape check_gemm_shapes(const MatrixF& a, const MatrixF& b, const MatrixF& c, Layout layout = Layout::nn);
// How A and B of `shape` are stored: rows x columns.
std::int64_t stored_a_rows(const GemmShape& shape);
std::int64_t stored_a_cols(const GemmShape& shape);
std::int64_t stored_b_rows(const GemmShape& shape);
std::int64_t stored_b_cols(const GemmShape& shape);

}  // namespace matcompare
