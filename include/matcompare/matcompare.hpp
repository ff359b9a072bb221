#pragma once
// The whole public API of the matcompare library.
#include "matcompare/backend.hpp"
#include "matcompare/benchmark.hpp"
#include "matcompare/context.hpp"
#include "matcompare/environment.hpp"
#include "matcompare/error_metrics.hpp"
#include "matcompare/matrix.hpp"
#include "matcompare/registry.hpp"
#include "matcompare/reporters.hpp"
#include "matcompare/suite.hpp"
