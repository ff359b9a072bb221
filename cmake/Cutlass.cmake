# CUTLASS (header-only) for gpu/cutlass-tf32: included by src/CMakeLists.txt where CUDA is. Its headers are looked
# for in .deps/cutlass/include (scripts/setup.sh unpacks PyPI's nvidia-cutlass wheel there), or where
# -DCUTLASS_INCLUDE_DIR=<folder holding cutlass/ and cute/> says. The row is built only when they are found and
# CMAKE_CUDA_ARCHITECTURES has 90a (wgmma and TMA); otherwise it reads unavailable with MATCOMPARE_CUTLASS_MISSING.
# Sets MATCOMPARE_HAVE_CUTLASS, MATCOMPARE_CUTLASS_VERSION and MATCOMPARE_CUTLASS_MISSING.
set(MATCOMPARE_HAVE_CUTLASS OFF)
set(MATCOMPARE_CUTLASS_VERSION "")
set(MATCOMPARE_CUTLASS_MISSING "")

find_path(CUTLASS_INCLUDE_DIR NAMES cutlass/version.h cute/tensor.hpp
          HINTS ${PROJECT_SOURCE_DIR}/.deps/cutlass/include
          DOC "CUTLASS include folder (holding cutlass/ and cute/)")

if(NOT CUTLASS_INCLUDE_DIR OR NOT EXISTS "${CUTLASS_INCLUDE_DIR}/cutlass/version.h"
   OR NOT EXISTS "${CUTLASS_INCLUDE_DIR}/cute/tensor.hpp")
  string(CONCAT MATCOMPARE_CUTLASS_MISSING
      "built without CUTLASS: its headers were not found (scripts/setup.sh unpacks them into .deps/cutlass/include, "
      "or configure with -DCUTLASS_INCLUDE_DIR=<folder holding cutlass/ and cute/>)")
elseif(NOT CMAKE_CUDA_ARCHITECTURES MATCHES "(^|;)90a(-real|-virtual)?(;|$)")
  string(REPLACE ";" "," _architectures "${CMAKE_CUDA_ARCHITECTURES}")
  string(CONCAT MATCOMPARE_CUTLASS_MISSING
      "built without CUTLASS's kernels: they need an sm_90a target and CMAKE_CUDA_ARCHITECTURES is "
      "${_architectures} (configure with -DCMAKE_CUDA_ARCHITECTURES=90a)")
else()
  file(READ ${CUTLASS_INCLUDE_DIR}/cutlass/version.h _cutlass_version_h)
  set(_cutlass_version_parts "")
  foreach(part IN ITEMS MAJOR MINOR PATCH)
    string(REGEX MATCH "#define CUTLASS_${part} +([0-9]+)" _match "${_cutlass_version_h}")
    list(APPEND _cutlass_version_parts "${CMAKE_MATCH_1}")
  endforeach()
  list(JOIN _cutlass_version_parts "." MATCOMPARE_CUTLASS_VERSION)
  set(MATCOMPARE_HAVE_CUTLASS ON)
endif()

if(MATCOMPARE_HAVE_CUTLASS)
  message(STATUS "matcompare: CUTLASS ${MATCOMPARE_CUTLASS_VERSION} ON (${CUTLASS_INCLUDE_DIR})")
else()
  message(STATUS "matcompare: gpu/cutlass-tf32 unavailable: ${MATCOMPARE_CUTLASS_MISSING}")
endif()

# CUTLASS's translation units apart from the library's own flags: sm_90a only (the -arch=sm_90a shorthand also runs
# a plain sm_90 pass, which rejects wgmma on nvcc 13.0), and -DNDEBUG whatever the build type, since without it
# ptxas serialises the wgmma instructions.
function(matcompare_add_cutlass_objects target)
  add_library(${target} OBJECT ${ARGN})
  set_target_properties(${target} PROPERTIES CUDA_ARCHITECTURES OFF POSITION_INDEPENDENT_CODE ON
                                             CUDA_SEPARABLE_COMPILATION OFF)
  target_compile_features(${target} PRIVATE cxx_std_17)
  target_include_directories(${target} SYSTEM PRIVATE ${CUTLASS_INCLUDE_DIR})
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/include)
  target_compile_definitions(${target} PRIVATE NDEBUG)
  target_compile_options(${target} PRIVATE -O3 "-gencode=arch=compute_90a,code=sm_90a" --expt-relaxed-constexpr
                                           -lineinfo)
endfunction()
