// gpu/cublaslt-*'s parts that need no GPU: how a chosen algorithm is named, what one search is kept under, which
// candidate wins, and that the vendor rows' cuBLAS functions resolve.
#include <doctest/doctest.h>

#include <cublasLt.h>

#include <map>
#include <string>
#include <vector>

#include "../src/gpu/runtime/cublas_library.hpp"
#include "../src/gpu/vendor/cublaslt_text.hpp"

using namespace matcompare::gpu;

TEST_CASE("cuBLASLt's tile, stage and cluster ids read as the header spells them") {
  CHECK(lt_tile_name(CUBLASLT_MATMUL_TILE_128x256) == "128x256");
  CHECK(lt_tile_name(CUBLASLT_MATMUL_TILE_64x96) == "64x96");
  CHECK(lt_tile_name(CUBLASLT_MATMUL_TILE_8x8) == "8x8");
  CHECK(lt_tile_name(CUBLASLT_MATMUL_TILE_UNDEFINED) == "#0");
  CHECK(lt_tile_name(99999) == "#99999");
  CHECK(lt_stages_name(CUBLASLT_MATMUL_STAGES_64x4) == "64x4");
  CHECK(lt_stages_name(CUBLASLT_MATMUL_STAGES_32x10) == "32x10");
  CHECK(lt_stages_name(CUBLASLT_MATMUL_STAGES_128xAUTO) == "128xAUTO");
  CHECK(lt_cluster_name(CUBLASLT_CLUSTER_SHAPE_AUTO) == "auto");
  CHECK(lt_cluster_name(CUBLASLT_CLUSTER_SHAPE_1x2x1) == "1x2x1");
  CHECK(lt_cluster_name(CUBLASLT_CLUSTER_SHAPE_16x1x1) == "16x1x1");
  CHECK(lt_reduction_name(CUBLASLT_REDUCTION_SCHEME_NONE) == "none");
  CHECK(lt_reduction_name(CUBLASLT_REDUCTION_SCHEME_INPLACE) == "in-place");
  CHECK(lt_reduction_name(CUBLASLT_REDUCTION_SCHEME_COMPUTE_TYPE) == "compute-type");
  CHECK(lt_reduction_name(CUBLASLT_REDUCTION_SCHEME_OUTPUT_TYPE) == "output-type");
  CHECK(lt_reduction_name(CUBLASLT_REDUCTION_SCHEME_MASK) == "#7");
}

TEST_CASE("a chosen algorithm names its id, tile, stages, split-K, reduction, swizzle and cluster") {
  LtAlgoConfig c;
  c.algo_id = 66;
  c.tile = CUBLASLT_MATMUL_TILE_128x256;
  c.stages = CUBLASLT_MATMUL_STAGES_64x4;
  c.split_k = 1;
  c.reduction = CUBLASLT_REDUCTION_SCHEME_NONE;
  c.swizzle = 1;
  c.cluster = CUBLASLT_CLUSTER_SHAPE_1x2x1;
  CHECK(describe_lt_algo(c) ==
        "algo 66, tile 128x256, stages 64x4, split-K 1, reduction none, swizzle 1, cluster 1x2x1");
  CHECK(describe_lt_choice(c, 2, 8) ==
        "cuBLASLt algo 66, tile 128x256, stages 64x4, split-K 1, reduction none, swizzle 1, cluster 1x2x1; "
        "candidate 3 of 8");
  c.split_k = 4;
  c.reduction = CUBLASLT_REDUCTION_SCHEME_COMPUTE_TYPE;
  c.custom = 2;
  c.cluster = CUBLASLT_CLUSTER_SHAPE_AUTO;
  CHECK(describe_lt_algo(c) ==
        "algo 66, tile 128x256, stages 64x4, split-K 4, reduction compute-type, swizzle 1, cluster auto, custom 2");
}

TEST_CASE("one search per GPU, compute type, shape and leading dimensions") {
  const LtSearchKey base{0, CUBLAS_COMPUTE_32F, 1024, 1001, 999, 1024, 1024, 1024};
  std::map<LtSearchKey, int> searches{{base, 1}};
  CHECK(searches.count(base) == 1);
  LtSearchKey same = base;
  CHECK(same == base);
  CHECK(searches.count(same) == 1);
  std::vector<LtSearchKey> others(8, base);
  others[0].device = 1;
  others[1].compute_type = CUBLAS_COMPUTE_32F_FAST_TF32;
  others[2].m = 1023;  // a few-row trial of the same problem is another shape
  others[3].n = 1004;
  others[4].k = 1000;
  others[5].lda = 1152;
  others[6].ldb = 1152;
  others[7].ldc = 1152;
  for (const LtSearchKey& other : others) {
    CHECK_FALSE(other == base);
    CHECK(searches.count(other) == 0);
    CHECK((other < base) != (base < other));
    searches.emplace(other, 2);
  }
  CHECK(searches.size() == 9);
}

TEST_CASE("the search keeps the fastest candidate that ran, the first of equals") {
  auto candidate = [](double ms, int runs, const char* error = "") {
    LtCandidate c;
    c.median_ms = ms;
    c.runs = runs;
    c.error = error;
    return c;
  };
  CHECK(fastest_candidate({}) == -1);
  CHECK(fastest_candidate({candidate(0, 0, "CUBLAS_STATUS_NOT_SUPPORTED")}) == -1);
  CHECK(fastest_candidate({candidate(2.0, 5), candidate(1.5, 5), candidate(1.7, 5)}) == 1);
  CHECK(fastest_candidate({candidate(1.5, 5), candidate(1.5, 5)}) == 0);
  // One the library turned down (no runs) or that failed is never the winner, however small its time reads.
  CHECK(fastest_candidate({candidate(3.0, 5), candidate(0.0, 0, "CUBLAS_STATUS_NOT_SUPPORTED"), candidate(0.1, 0)}) ==
        0);
  CHECK(fastest_candidate({candidate(0.5, 2, "CUBLAS_STATUS_EXECUTION_FAILED"), candidate(4.0, 2)}) == 1);
}

// The GPU rows open cuBLAS and cuBLASLt at their first use (src/gpu/runtime/cublas_library.hpp), so that a CPU-only
// program never maps them: every function they call must resolve, which needs the libraries but no GPU.
TEST_CASE("cuBLAS and cuBLASLt open at their first use, and every function the GPU rows call resolves") {
  const CublasLibrary& library = cublas_library();
#define MC_CHECK_RESOLVED(handle, function) CHECK_MESSAGE(bool(library.function), #function);
  MC_CUBLAS_FUNCTIONS(MC_CHECK_RESOLVED)
#undef MC_CHECK_RESOLVED
  int major = 0;
  REQUIRE(library.cublasGetProperty(MAJOR_VERSION, &major) == CUBLAS_STATUS_SUCCESS);
  CHECK(major == CUBLAS_VER_MAJOR);
  CHECK(std::string(library.cublasLtGetStatusName(CUBLAS_STATUS_NOT_SUPPORTED)) == "CUBLAS_STATUS_NOT_SUPPORTED");
  CHECK(&cublas_library() == &library);  // opened once
}
