#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>

#include "matcompare/matrix.hpp"

using matcompare::MatrixD;
using matcompare::MatrixF;

TEST_CASE("a new matrix has its shape, zero values and aligned storage") {
  MatrixF m(3, 5);
  CHECK(m.rows() == 3);
  CHECK(m.cols() == 5);
  CHECK(m.size() == 15);
  CHECK(reinterpret_cast<std::uintptr_t>(m.data()) % 64 == 0);
  for (std::size_t i = 0; i < m.size(); ++i) CHECK(m.data()[i] == 0.0f);
  MatrixD filled(2, 2, 7.5);
  CHECK(filled(1, 1) == 7.5);
}

TEST_CASE("random fill is seeded, within [-1, 1] and not constant") {
  const MatrixF a = MatrixF::random(40, 30, 1234), b = MatrixF::random(40, 30, 1234), c = MatrixF::random(40, 30, 99);
  CHECK(a == b);
  CHECK(a != c);
  float lo = 1, hi = -1;
  for (std::size_t i = 0; i < a.size(); ++i) {
    lo = std::min(lo, a.data()[i]);
    hi = std::max(hi, a.data()[i]);
  }
  CHECK(lo >= -1.0f);
  CHECK(hi <= 1.0f);
  CHECK(hi - lo > 1.5f);
}

TEST_CASE("identity, transpose and product agree with their definitions") {
  const MatrixD a = MatrixD::random(4, 6, 5);
  CHECK(MatrixD::identity(4) * a == a);
  CHECK(a * MatrixD::identity(6) == a);
  const MatrixD t = a.transposed();
  REQUIRE(t.rows() == 6);
  REQUIRE(t.cols() == 4);
  for (std::size_t r = 0; r < 4; ++r)
    for (std::size_t c = 0; c < 6; ++c) CHECK(t(c, r) == a(r, c));
  CHECK(t.transposed() == a);

  MatrixD x(2, 3), y(3, 2);
  double v = 1;
  for (std::size_t i = 0; i < 6; ++i) x.data()[i] = v++;
  for (std::size_t i = 0; i < 6; ++i) y.data()[i] = v++;
  const MatrixD p = x * y;  // [[1,2,3],[4,5,6]] · [[7,8],[9,10],[11,12]]
  CHECK(p(0, 0) == 58);
  CHECK(p(0, 1) == 64);
  CHECK(p(1, 0) == 139);
  CHECK(p(1, 1) == 154);
}

TEST_CASE("addition and subtraction are element-wise") {
  const MatrixF a = MatrixF::random(3, 3, 1), b = MatrixF::random(3, 3, 2);
  const MatrixF s = a + b, d = s - b;
  for (std::size_t i = 0; i < a.size(); ++i) {
    CHECK(s.data()[i] == a.data()[i] + b.data()[i]);
    CHECK(d.data()[i] == doctest::Approx(a.data()[i]).epsilon(1e-6));
  }
}

TEST_CASE("mismatched dimensions throw with a message naming both shapes") {
  const MatrixF a(2, 3), b(3, 2), c(2, 2);
  CHECK_THROWS_WITH_AS(a + b, "cannot add a 3x2 matrix to a 2x3 matrix", std::invalid_argument);
  CHECK_THROWS_AS(a - c, std::invalid_argument);
  CHECK_THROWS_WITH_AS(a * c, "cannot multiply a 2x3 matrix by a 2x2 matrix", std::invalid_argument);
  CHECK_NOTHROW(a * b);
  CHECK_THROWS_AS(a.at(2, 0), std::out_of_range);
  CHECK_THROWS_AS(a.at(0, 3), std::out_of_range);
}

TEST_CASE("copies are deep, moves leave the source empty, cast converts every element") {
  MatrixF a = MatrixF::random(5, 5, 3);
  MatrixF copy = a;
  copy(0, 0) = 42;
  CHECK(a(0, 0) != 42);
  MatrixF moved = std::move(copy);
  CHECK(copy.empty());
  CHECK(moved(0, 0) == 42);
  const MatrixD wide = a.cast<double>();
  for (std::size_t i = 0; i < a.size(); ++i) CHECK(wide.data()[i] == double(a.data()[i]));
}

TEST_CASE("random_integers and random_reals draw within their range, reproducibly") {
  const MatrixF integers = MatrixF::random_integers(50, 40, 7, 1, 100);
  CHECK(integers == MatrixF::random_integers(50, 40, 7, 1, 100));
  bool saw_low = false, saw_high = false;
  for (std::size_t i = 0; i < integers.size(); ++i) {
    const float x = integers.data()[i];
    CHECK(x == std::floor(x));
    CHECK(x >= 1);
    CHECK(x <= 100);
    saw_low |= x == 1;
    saw_high |= x == 100;
  }
  CHECK(saw_low);   // both ends are drawn: 2000 draws miss one end with probability ~2e-9
  CHECK(saw_high);
  const MatrixF reals = MatrixF::random_reals(50, 40, 7, 1.0, 100.0);
  bool fractional = false;
  for (std::size_t i = 0; i < reals.size(); ++i) {
    CHECK(reals.data()[i] >= 1.0f);
    CHECK(reals.data()[i] <= 100.0f);
    fractional |= reals.data()[i] != std::floor(reals.data()[i]);
  }
  CHECK(fractional);
  CHECK(MatrixF::random(9, 9, 3) == MatrixF::random_reals(9, 9, 3, -1.0, 1.0));
  CHECK_THROWS_AS(MatrixF::random_integers(2, 2, 1, 5, 4), std::invalid_argument);
  CHECK_THROWS_AS(MatrixF::random_reals(2, 2, 1, 1.0, 1.0), std::invalid_argument);
}
