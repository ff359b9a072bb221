# Every dependency comes from a system package (see scripts/setup).
find_package(OpenMP REQUIRED COMPONENTS CXX)
find_package(Threads REQUIRED)

# OpenBLAS: prefer the Debian/Ubuntu variant folders so cblas.h is OpenBLAS's own
# (it declares openblas_get_config and friends), not the netlib alternative.
find_library(OPENBLAS_LIBRARY NAMES openblas REQUIRED)
find_path(OPENBLAS_INCLUDE_DIR NAMES cblas.h
          PATH_SUFFIXES openblas-pthread openblas-openmp openblas x86_64-linux-gnu/openblas-pthread
                        x86_64-linux-gnu/openblas-openmp x86_64-linux-gnu/openblas
          REQUIRED)
add_library(matcompare_openblas INTERFACE)
target_include_directories(matcompare_openblas INTERFACE ${OPENBLAS_INCLUDE_DIR})
target_link_libraries(matcompare_openblas INTERFACE ${OPENBLAS_LIBRARY})

find_path(NLOHMANN_JSON_INCLUDE_DIR NAMES nlohmann/json.hpp REQUIRED)
find_path(CLI11_INCLUDE_DIR NAMES CLI/CLI.hpp REQUIRED)
if(MATCOMPARE_BUILD_TESTS)
  find_path(DOCTEST_INCLUDE_DIR NAMES doctest/doctest.h REQUIRED)
endif()
