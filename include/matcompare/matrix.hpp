#pragma once
// Row-major, owning matrix with 64-byte aligned storage (seed 003's Matrix class, made safe:
// mismatched dimensions throw instead of printing and returning an operand).
#include <cstddef>
#include <cstdint>
#include <memory>

namespace matcompare {

template <typename T>
class Matrix {
 public:
  Matrix() = default;
  // Throw std::length_error naming rows or cols when one is over 2^63 - 1 (a negative size converted) or their
  // product's bytes overflow std::size_t, std::bad_alloc when the memory cannot be had.
  Matrix(std::size_t rows, std::size_t cols);            // zero-filled
  Matrix(std::size_t rows, std::size_t cols, T value);   // filled with value
  Matrix(const Matrix& other);
  Matrix(Matrix&& other) noexcept;
  Matrix& operator=(const Matrix& other);
  Matrix& operator=(Matrix&& other) noexcept;
  ~Matrix() = default;

  // Uniform values in [-1, 1] drawn from a seeded generator: the same seed gives the same matrix.
  static Matrix random(std::size_t rows, std::size_t cols, std::uint64_t seed);
  // Uniform reals in [low, high) from a seeded generator; random() is random_reals(…, -1, 1).
  static Matrix random_reals(std::size_t rows, std::size_t cols, std::uint64_t seed, double low, double high);
  // Uniform integers in [low, high] from a seeded generator.
  static Matrix random_integers(std::size_t rows, std::size_t cols, std::uint64_t seed, int low, int high);
  static Matrix identity(std::size_t n);

  std::size_t rows() const noexcept { return rows_; }
  std::size_t cols() const noexcept { return cols_; }
  std::size_t size() const noexcept { return rows_ * cols_; }
  bool empty() const noexcept { return size() == 0; }

  T* data() noexcept { return data_.get(); }
  const T* data() const noexcept { return data_.get(); }
  T& operator()(std::size_t r, std::size_t c) noexcept { return data_[r * cols_ + c]; }
  const T& operator()(std::size_t r, std::size_t c) const noexcept { return data_[r * cols_ + c]; }
  // Bounds-checked access: throws std::out_of_range.
  T& at(std::size_t r, std::size_t c);
  const T& at(std::size_t r, std::size_t c) const;

  void fill(T value) noexcept;
  Matrix transposed() const;
  Matrix operator+(const Matrix& other) const;   // throws std::invalid_argument on mismatch
  Matrix operator-(const Matrix& other) const;   // throws std::invalid_argument on mismatch
  Matrix operator*(const Matrix& other) const;   // textbook product in T; throws on mismatch
  bool operator==(const Matrix& other) const noexcept;  // same shape and bitwise-equal values
  bool operator!=(const Matrix& other) const noexcept { return !(*this == other); }

  template <typename U>
  Matrix<U> cast() const {
    Matrix<U> out(rows_, cols_);
    for (std::size_t i = 0; i < size(); ++i) out.data()[i] = static_cast<U>(data_[i]);
    return out;
  }

 private:
  struct AlignedFree {
    void operator()(T* p) const noexcept;
  };
  static std::size_t checked_count(std::size_t rows, std::size_t cols);
  static std::unique_ptr<T[], AlignedFree> allocate(std::size_t count);

  std::size_t rows_ = 0;
  std::size_t cols_ = 0;
  std::unique_ptr<T[], AlignedFree> data_;
};

using MatrixF = Matrix<float>;
using MatrixD = Matrix<double>;

extern template class Matrix<float>;
extern template class Matrix<double>;

}  // namespace matcompare
