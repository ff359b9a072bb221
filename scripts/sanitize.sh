#!/usr/bin/env bash
# The sanitizer leg: the CPU test suites and the CLI tests built with AddressSanitizer and
# UndefinedBehaviorSanitizer (no CUDA) into ./build-asan; the first report of either ends the test.
# Run by scripts/test.sh after the main suite; needs what scripts/setup.sh installs.
set -euo pipefail
cd "$(dirname "$0")/.."

sanitizers="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
suites=(test_matrix test_error_metrics test_reporters test_cpu_backends test_cpu_vendors test_harness test_method test_best_vendor test_multi_gpu test_cublasmp_workers test_library_misuse test_cli test_cli_bad_input test_compare test_suites)

generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
# -O1 -g1 (line tables only): the build takes half the time of -O2 -g (test_reporters.cpp alone 51 s, not 111 s, on
# 2 cores), the CPU tests slower, and the reports still name file and line (tests/mutations/ci_time.md).
cmake -S . -B build-asan "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMATCOMPARE_WITH_CUDA=OFF \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DCMAKE_CXX_FLAGS="$sanitizers" \
  -DCMAKE_EXE_LINKER_FLAGS="$sanitizers" -DCMAKE_SHARED_LINKER_FLAGS="$sanitizers" >/dev/null
cmake --build build-asan -j"$(nproc)" --target matcompare_cli "${suites[@]}"

# intercept_tls_get_addr=0: with cpu/libblis's plugin loaded, GCC 12's LeakSanitizer reads a bogus range for
# libblis.so.4's dynamic TLS in the OpenMP worker threads (from its __tls_get_addr interceptor) and its tracer crashes
# at exit. Without the interceptor, LSan still scans every thread's static TLS, where libgomp keeps its state.
export ASAN_OPTIONS="detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:intercept_tls_get_addr=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
pattern="^($(IFS='|'; echo "${suites[*]}"))\$"
ctest --test-dir build-asan --output-on-failure -j2 -R "$pattern"
