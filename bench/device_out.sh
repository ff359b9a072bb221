# Sourced by the GPU-machine session scripts after `out=$1`: logs/ and results/ under $out, packed on exit into two
# archives (the device tool returns at most 8 files), and log(), which stamps a step into logs/steps.txt.
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p "$out/logs" "$out/results"
pack() {
  tar -C "$out" -czf "$out/logs.tar.gz" logs && tar -C "$out" -czf "$out/results.tar.gz" results &&
    rm -rf "$out/logs" "$out/results"
}
trap pack EXIT
trap 'exit 143' TERM INT
log() { echo "$(date +%T) $*" | tee -a "$out/logs/steps.txt"; }
# The build (bench/gpu_build.sh) and the whole CTest suite but the report's (CPU only) and cuBLASMp's (not built
# without its wheel), logged; exits the script when the build fails. Usage: build_and_ctest COMMIT
build_and_ctest() {
  source bench/gpu_build.sh
  log build
  gpu_build "$1" "$out/logs" || exit 1
  log built
  ctest --test-dir build -j4 --timeout 150 -E "test_report|test_gpu_cublasmp" > "$out/logs/ctest.log" 2>&1
  log "ctest exit $?: $(grep -E 'tests passed' "$out/logs/ctest.log")"
  grep -E "Test +#" "$out/logs/ctest.log"
}
