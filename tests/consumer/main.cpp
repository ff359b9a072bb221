// Lists the backends, picks one by name, multiplies the caller's own matrices with it, then checks
// and times it as the CLI does. Exit 0 only if the product is right and, where the process's mappings can be read,
// this CPU-only use mapped no cuBLAS (the GPU rows open it at their first use).
#include <matcompare/matcompare.hpp>

#include <fstream>
#include <iostream>
#include <string>

int main() {
  using namespace matcompare;
  std::cout << all_backends().size() << " backends\n";

  const Backend& blis = find_backend("cpu/blis");
  MatrixF a = MatrixF::random(70, 50, 1), b = MatrixF::random(50, 30, 2), c = MatrixF::random(70, 30, 3);
  const Reference ref = compute_reference(0.5f, a, b, 2.0f, c);
  blis.gemm(0.5f, a, b, 2.0f, c);
  const ErrorStats errors = compare_to_reference(c, ref, blis.info().precision);
  std::cout << blis.info().name << ": max error " << errors.max_abs << ", blas ratio " << errors.blas_ratio << "\n";

  BenchmarkOptions options;
  options.repetitions = 3;
  options.min_time_s = 0.01;
  const BenchmarkResult r = measure(blis, make_problem({96, 64, 32}, 1.0f, 0.0f, 5), options);
  std::cout << "measured " << r.gflops << " GFLOP/s, status " << to_string(r.status) << "\n";

  std::ifstream maps("/proc/self/maps");
  bool cublas_mapped = false;
  for (std::string line; std::getline(maps, line);)
    if (line.find("libcublas") != std::string::npos) cublas_mapped = true;
  std::cout << "cuBLAS mapped: " << (cublas_mapped ? "yes" : "no") << "\n";
  return errors.passed && r.status == Status::ok && r.errors.passed && !cublas_mapped ? 0 : 1;
}
