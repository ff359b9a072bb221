#include "matcompare/matrix.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <random>
#include <stdexcept>
#include <string>

namespace matcompare {
namespace {

constexpr std::size_t kAlignment = 64;

std::string shape_text(std::size_t r, std::size_t c) {
  return std::to_string(r) + "x" + std::to_string(c);
}

// Elements drawn by one generator. Chunks are drawn in parallel, each from its own generator, so a 131072^2
// matrix takes seconds instead of minutes and the values do not depend on the number of threads.
constexpr std::size_t kDrawChunk = std::size_t(1) << 20;
// Filling and copying run in parallel from this many elements: below it the threads cost more than they save.
constexpr std::size_t kParallelElements = std::size_t(1) << 22;

// The first chunk keeps the seed itself, so matrices of up to kDrawChunk elements are what one generator gives.
std::uint64_t chunk_seed(std::uint64_t seed, std::size_t chunk) {
  if (chunk == 0) return seed;
  std::uint64_t x = seed + 0x9E3779B97F4A7C15ull * std::uint64_t(chunk);
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

template <typename T, typename Distribution>
Matrix<T> drawn(std::size_t rows, std::size_t cols, std::uint64_t seed, Distribution distribution) {
  Matrix<T> m(rows, cols);
  const std::size_t chunks = (m.size() + kDrawChunk - 1) / kDrawChunk;
  T* data = m.data();
  const std::size_t size = m.size();
#pragma omp parallel for schedule(static) if (size >= kParallelElements)
  for (std::size_t chunk = 0; chunk < chunks; ++chunk) {
    std::mt19937_64 engine(chunk_seed(seed, chunk));
    Distribution own = distribution;
    const std::size_t end = std::min(size, (chunk + 1) * kDrawChunk);
    for (std::size_t i = chunk * kDrawChunk; i < end; ++i) data[i] = static_cast<T>(own(engine));
  }
  return m;
}

}  // namespace

template <typename T>
void Matrix<T>::AlignedFree::operator()(T* p) const noexcept {
  std::free(p);
}

template <typename T>
std::size_t Matrix<T>::checked_count(std::size_t rows, std::size_t cols) {
  // A dimension past this is a negative size converted to std::size_t, and a shape could not hold it.
  constexpr std::size_t most = std::size_t(std::numeric_limits<std::int64_t>::max());
  if (rows > most) throw std::length_error("Matrix: rows = " + std::to_string(rows) + " is over 2^63 - 1");
  if (cols > most) throw std::length_error("Matrix: cols = " + std::to_string(cols) + " is over 2^63 - 1");
  if (cols != 0 && rows > (std::size_t(-1) - kAlignment) / sizeof(T) / cols)
    throw std::length_error("Matrix: rows x cols = " + shape_text(rows, cols) + " elements of " +
                            std::to_string(sizeof(T)) + " bytes overflow std::size_t");
  return rows * cols;
}

template <typename T>
std::unique_ptr<T[], typename Matrix<T>::AlignedFree> Matrix<T>::allocate(std::size_t count) {
  if (count == 0) return {};
  const std::size_t bytes = (count * sizeof(T) + kAlignment - 1) / kAlignment * kAlignment;
  void* p = std::aligned_alloc(kAlignment, bytes);
  if (!p) throw std::bad_alloc();
  return std::unique_ptr<T[], AlignedFree>(static_cast<T*>(p));
}

template <typename T>
Matrix<T>::Matrix(std::size_t rows, std::size_t cols) : Matrix(rows, cols, T(0)) {}

template <typename T>
Matrix<T>::Matrix(std::size_t rows, std::size_t cols, T value)
    : rows_(rows), cols_(cols), data_(allocate(checked_count(rows, cols))) {
  fill(value);
}

template <typename T>
Matrix<T>::Matrix(const Matrix& other)
    : rows_(other.rows_), cols_(other.cols_), data_(allocate(other.size())) {
  if (!other.empty()) std::memcpy(data_.get(), other.data_.get(), size() * sizeof(T));
}

template <typename T>
Matrix<T>::Matrix(Matrix&& other) noexcept
    : rows_(other.rows_), cols_(other.cols_), data_(std::move(other.data_)) {
  other.rows_ = other.cols_ = 0;
}

template <typename T>
Matrix<T>& Matrix<T>::operator=(const Matrix& other) {
  if (this != &other) *this = Matrix(other);
  return *this;
}

template <typename T>
Matrix<T>& Matrix<T>::operator=(Matrix&& other) noexcept {
  rows_ = other.rows_;
  cols_ = other.cols_;
  data_ = std::move(other.data_);
  other.rows_ = other.cols_ = 0;
  return *this;
}

template <typename T>
Matrix<T> Matrix<T>::random(std::size_t rows, std::size_t cols, std::uint64_t seed) {
  return random_reals(rows, cols, seed, -1.0, 1.0);
}

template <typename T>
Matrix<T> Matrix<T>::random_reals(std::size_t rows, std::size_t cols, std::uint64_t seed, double low, double high) {
  if (!(low < high) || !std::isfinite(high - low))
    throw std::invalid_argument("random_reals needs finite low < high, got [" + std::to_string(low) + ", " +
                                std::to_string(high) + ")");
  return drawn<T>(rows, cols, seed, std::uniform_real_distribution<double>(low, high));
}

template <typename T>
Matrix<T> Matrix<T>::random_integers(std::size_t rows, std::size_t cols, std::uint64_t seed, int low, int high) {
  if (low > high)
    throw std::invalid_argument("random_integers needs low <= high, got [" + std::to_string(low) + ", " +
                                std::to_string(high) + "]");
  return drawn<T>(rows, cols, seed, std::uniform_int_distribution<int>(low, high));
}

template <typename T>
Matrix<T> Matrix<T>::identity(std::size_t n) {
  Matrix m(n, n);
  for (std::size_t i = 0; i < n; ++i) m(i, i) = T(1);
  return m;
}

template <typename T>
T& Matrix<T>::at(std::size_t r, std::size_t c) {
  if (r >= rows_ || c >= cols_)
    throw std::out_of_range("element (" + std::to_string(r) + ", " + std::to_string(c) +
                            ") is outside a " + shape_text(rows_, cols_) + " matrix");
  return (*this)(r, c);
}

template <typename T>
const T& Matrix<T>::at(std::size_t r, std::size_t c) const {
  return const_cast<Matrix*>(this)->at(r, c);
}

template <typename T>
void Matrix<T>::fill(T value) noexcept {
  T* data = data_.get();
  const std::size_t count = size();
  // Parallel first touch also spreads a large matrix's pages over the memory of every socket.
#pragma omp parallel for schedule(static) if (count >= kParallelElements)
  for (std::size_t i = 0; i < count; ++i) data[i] = value;
}

template <typename T>
Matrix<T> Matrix<T>::transposed() const {
  Matrix t(cols_, rows_);
  for (std::size_t r = 0; r < rows_; ++r)
    for (std::size_t c = 0; c < cols_; ++c) t(c, r) = (*this)(r, c);
  return t;
}

template <typename T>
Matrix<T> Matrix<T>::operator+(const Matrix& other) const {
  if (rows_ != other.rows_ || cols_ != other.cols_)
    throw std::invalid_argument("cannot add a " + shape_text(other.rows_, other.cols_) + " matrix to a " +
                                shape_text(rows_, cols_) + " matrix");
  Matrix sum(*this);
  for (std::size_t i = 0; i < size(); ++i) sum.data_[i] += other.data_[i];
  return sum;
}

template <typename T>
Matrix<T> Matrix<T>::operator-(const Matrix& other) const {
  if (rows_ != other.rows_ || cols_ != other.cols_)
    throw std::invalid_argument("cannot subtract a " + shape_text(other.rows_, other.cols_) + " matrix from a " +
                                shape_text(rows_, cols_) + " matrix");
  Matrix diff(*this);
  for (std::size_t i = 0; i < size(); ++i) diff.data_[i] -= other.data_[i];
  return diff;
}

template <typename T>
Matrix<T> Matrix<T>::operator*(const Matrix& other) const {
  if (cols_ != other.rows_)
    throw std::invalid_argument("cannot multiply a " + shape_text(rows_, cols_) + " matrix by a " +
                                shape_text(other.rows_, other.cols_) + " matrix");
  Matrix product(rows_, other.cols_);
  for (std::size_t i = 0; i < rows_; ++i)
    for (std::size_t p = 0; p < cols_; ++p) {
      const T a = (*this)(i, p);
      for (std::size_t j = 0; j < other.cols_; ++j) product(i, j) += a * other(p, j);
    }
  return product;
}

template <typename T>
bool Matrix<T>::operator==(const Matrix& other) const noexcept {
  if (rows_ != other.rows_ || cols_ != other.cols_) return false;
  return empty() || std::memcmp(data_.get(), other.data_.get(), size() * sizeof(T)) == 0;
}

template class Matrix<float>;
template class Matrix<double>;

}  // namespace matcompare
