#pragma once
// The two loops of cpu/blis's few-rows path for any vector instruction set: included only by the files that
// instantiate them for one set, each compiled for it (few_rows_isa.hpp).
//
// B stored K x N: four rows of B per pass over the accumulators, so a row of partial sums is loaded and stored once
// per four rows of B, and the rows are asked for kRowsAhead ahead (a narrow B's rows are shorter than a 4 KiB page,
// where the hardware prefetcher stops).
// B stored N x K: C columns of op(B) (rows of B) at a time against every row of A, M x C independent vector sums, so
// each element of B is loaded once for all the rows of C; C is as many as the set's registers hold beside a row of A.
#include <cstdint>

#include "few_rows_isa.hpp"

namespace matcompare::cpu::blis::few_rows {

constexpr std::int64_t kRowsAhead = 8;
constexpr std::int64_t kLineFloats = 16;
// Rows of B at least this long (a 4 KiB page) are left to the hardware prefetcher, which follows a stream within a
// page: asking for each of their lines doubled the loads issued (bench/NOTES.md, "cpu/blis's few rows: wide rows").
constexpr std::int64_t kPageFloats = 1024;

// Isa: Vec, kLanes, kRegisters (vector registers), zero(), broadcast(const float*), loadu(const float*),
// storeu(float*, Vec), fmadd(a, b, c) = a * b + c, sum(Vec).

// The most whole vectors of columns whose M rows of sums stay in registers, in two sets (below), beside a few for
// B and A.
template <class Isa, int M>
constexpr int kMostVectorsInRegisters = (Isa::kRegisters - 4) / (2 * M);

// B stored K x N, a block of V whole vectors of columns: the M x V sums stay in registers through all of K, in two
// sets that take alternate rows of B, so that each sum waits on its own last FMA only every other row. Then nothing
// but B and A is loaded per row (the loop below loads and stores the sums once per four rows, and its four FMAs into
// one sum are a chain: at 64 columns twice OpenBLAS's time with B in cache; bench/NOTES.md, "A narrow C's sums in
// registers"). The rows are asked ahead only where they are `strided`, apart in memory: adjacent ones are one stream
// for the hardware, and the prefetches, one per line of B, cost 6% in cache.
template <class Isa, int M, int V>
void untransposed_in_registers(std::int64_t k, const float* a_rows, const float* b, std::int64_t ldb, bool strided,
                               float* acc, std::int64_t acc_ld) {
  using Vec = typename Isa::Vec;
  constexpr int L = Isa::kLanes;
  Vec even[M][V], odd[M][V];
  for (int i = 0; i < M; ++i)
    for (int v = 0; v < V; ++v) even[i][v] = odd[i][v] = Isa::zero();
  std::int64_t p = 0;
  for (; p + 2 <= k; p += 2) {
    const float* b0 = b + p * ldb;
    const float* b1 = b0 + ldb;
    if (strided && p + 2 + kRowsAhead <= k)
      for (int r = 0; r < 2; ++r)
        for (int j = 0; j < V * L; j += kLineFloats) __builtin_prefetch(b0 + (kRowsAhead + r) * ldb + j);
    for (int i = 0; i < M; ++i) {
      const Vec a0 = Isa::broadcast(a_rows + i * k + p), a1 = Isa::broadcast(a_rows + i * k + p + 1);
      for (int v = 0; v < V; ++v) {
        even[i][v] = Isa::fmadd(a0, Isa::loadu(b0 + v * L), even[i][v]);
        odd[i][v] = Isa::fmadd(a1, Isa::loadu(b1 + v * L), odd[i][v]);
      }
    }
  }
  if (p < k)
    for (int i = 0; i < M; ++i) {
      const Vec a0 = Isa::broadcast(a_rows + i * k + p);
      for (int v = 0; v < V; ++v) even[i][v] = Isa::fmadd(a0, Isa::loadu(b + p * ldb + v * L), even[i][v]);
    }
  // acc + even + odd, as FMAs by 1 (exact: one rounding each, as an add), the one operation every Isa has.
  const float one = 1.0f;
  const Vec ones = Isa::broadcast(&one);
  for (int i = 0; i < M; ++i)
    for (int v = 0; v < V; ++v) {
      float* c = acc + i * acc_ld + v * L;
      Isa::storeu(c, Isa::fmadd(ones, odd[i][v], Isa::fmadd(ones, even[i][v], Isa::loadu(c))));
    }
}

// untransposed_in_registers for `vectors` (1 to kMostVectorsInRegisters<Isa, M>) known only at run time.
template <class Isa, int M, int V = 1>
void untransposed_in_registers(int vectors, std::int64_t k, const float* a_rows, const float* b, std::int64_t ldb,
                               bool strided, float* acc, std::int64_t acc_ld) {
  if constexpr (V <= kMostVectorsInRegisters<Isa, M>) {
    if (vectors == V) return untransposed_in_registers<Isa, M, V>(k, a_rows, b, ldb, strided, acc, acc_ld);
    untransposed_in_registers<Isa, M, V + 1>(vectors, k, a_rows, b, ldb, strided, acc, acc_ld);
  }
}

template <class Isa, int M>
void untransposed(std::int64_t k, const float* a_rows, const float* b, std::int64_t ldb, std::int64_t width,
                  float* acc, std::int64_t acc_ld) {
  using Vec = typename Isa::Vec;
  constexpr int L = Isa::kLanes;
  if (width >= L && width / L <= kMostVectorsInRegisters<Isa, M>) {
    // The whole vectors in registers; the last width % L columns, if any, by the loop below.
    const std::int64_t whole = width / L * L;
    untransposed_in_registers<Isa, M>(int(width / L), k, a_rows, b, ldb, ldb > width, acc, acc_ld);
    if (whole == width) return;
    b += whole;
    acc += whole;
    width -= whole;
  }
  std::int64_t p = 0;
  for (; p + 4 <= k; p += 4) {
    const float* b0 = b + p * ldb;
    const float *b1 = b0 + ldb, *b2 = b1 + ldb, *b3 = b2 + ldb;
    if (width < kPageFloats && p + 4 + kRowsAhead <= k)
      for (int r = 0; r < 4; ++r)
        for (std::int64_t j = 0; j < width; j += kLineFloats) __builtin_prefetch(b0 + (kRowsAhead + r) * ldb + j);
    for (int i = 0; i < M; ++i) {
      const float* a = a_rows + i * k + p;
      const Vec a0 = Isa::broadcast(a), a1 = Isa::broadcast(a + 1), a2 = Isa::broadcast(a + 2),
                a3 = Isa::broadcast(a + 3);
      float* c = acc + i * acc_ld;
      std::int64_t j = 0;
      for (; j + L <= width; j += L) {
        Vec v = Isa::loadu(c + j);
        v = Isa::fmadd(a0, Isa::loadu(b0 + j), v);
        v = Isa::fmadd(a1, Isa::loadu(b1 + j), v);
        v = Isa::fmadd(a2, Isa::loadu(b2 + j), v);
        v = Isa::fmadd(a3, Isa::loadu(b3 + j), v);
        Isa::storeu(c + j, v);
      }
      for (; j < width; ++j) c[j] = c[j] + a[0] * b0[j] + a[1] * b1[j] + a[2] * b2[j] + a[3] * b3[j];
    }
  }
  for (; p < k; ++p) {
    const float* b0 = b + p * ldb;
    for (int i = 0; i < M; ++i) {
      const float a = a_rows[i * k + p];
      const Vec a0 = Isa::broadcast(&a);
      float* c = acc + i * acc_ld;
      std::int64_t j = 0;
      for (; j + L <= width; j += L) Isa::storeu(c + j, Isa::fmadd(a0, Isa::loadu(b0 + j), Isa::loadu(c + j)));
      for (; j < width; ++j) c[j] += a * b0[j];
    }
  }
}

// Columns [j, j + C) of the transposed product.
template <class Isa, int M, int C>
inline __attribute__((always_inline)) void transposed_columns(std::int64_t k, const float* a_rows, const float* b,
                                                              std::int64_t ldb, float* acc, std::int64_t acc_ld) {
  using Vec = typename Isa::Vec;
  constexpr int L = Isa::kLanes;
  Vec s[M][C];
  for (int i = 0; i < M; ++i)
    for (int c = 0; c < C; ++c) s[i][c] = Isa::zero();
  std::int64_t p = 0;
  for (; p + L <= k; p += L) {
    Vec bv[C];
    for (int c = 0; c < C; ++c) bv[c] = Isa::loadu(b + c * ldb + p);
    for (int i = 0; i < M; ++i) {
      const Vec av = Isa::loadu(a_rows + i * k + p);
      for (int c = 0; c < C; ++c) s[i][c] = Isa::fmadd(av, bv[c], s[i][c]);
    }
  }
  for (int i = 0; i < M; ++i)
    for (int c = 0; c < C; ++c) {
      float sum = Isa::sum(s[i][c]);
      for (std::int64_t q = p; q < k; ++q) sum += a_rows[i * k + q] * b[c * ldb + q];
      acc[i * acc_ld + c] = sum;
    }
}

template <class Isa, int M, int C>
void transposed(std::int64_t k, const float* a_rows, const float* b, std::int64_t ldb, std::int64_t width, float* acc,
                std::int64_t acc_ld) {
  std::int64_t j = 0;
  for (; j + C <= width; j += C) transposed_columns<Isa, M, C>(k, a_rows, b + j * ldb, ldb, acc + j, acc_ld);
  for (; j < width; ++j) transposed_columns<Isa, M, 1>(k, a_rows, b + j * ldb, ldb, acc + j, acc_ld);
}

// The loops as types, so that one switch serves both; C is the transposed loop's columns a pass.
struct Untransposed {
  template <class Isa, int M>
  static void run(std::int64_t k, const float* a, const float* b, std::int64_t ldb, std::int64_t width, float* acc,
                  std::int64_t acc_ld) {
    untransposed<Isa, M>(k, a, b, ldb, width, acc, acc_ld);
  }
};
template <int C>
struct Transposed {
  template <class Isa, int M>
  static void run(std::int64_t k, const float* a, const float* b, std::int64_t ldb, std::int64_t width, float* acc,
                  std::int64_t acc_ld) {
    transposed<Isa, M, C>(k, a, b, ldb, width, acc, acc_ld);
  }
};

// A loop for m = 1 .. 4 (kFewRows, which few_rows.cpp checks), each with its rows known, so that the sums stay in
// registers.
template <class Isa, class Loop>
void any_rows(std::int64_t m, std::int64_t k, const float* a, const float* b, std::int64_t ldb, std::int64_t width,
              float* acc, std::int64_t acc_ld) {
  switch (m) {
    case 1: return Loop::template run<Isa, 1>(k, a, b, ldb, width, acc, acc_ld);
    case 2: return Loop::template run<Isa, 2>(k, a, b, ldb, width, acc, acc_ld);
    case 3: return Loop::template run<Isa, 3>(k, a, b, ldb, width, acc, acc_ld);
    default: return Loop::template run<Isa, 4>(k, a, b, ldb, width, acc, acc_ld);
  }
}

template <class Isa, int kColumns>
constexpr FewRowsKernels kKernels{&any_rows<Isa, Untransposed>, &any_rows<Isa, Transposed<kColumns>>};

}  // namespace matcompare::cpu::blis::few_rows
