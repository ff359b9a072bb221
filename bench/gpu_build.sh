# Sourced by the GPU-machine session scripts: configures and builds build/ for sm_90a with the commit given.
# cuBLASMp is not on the GPU machine and it has no network: when .whl/ holds the nvidia-cublasmp-cu13 wheel
# (carried by the device tool: `pip download --no-deps -d .whl nvidia-cublasmp-cu13==0.7.0.125` here), it is
# unpacked into /tmp/site and CMake pointed at it; NCCL and NVSHMEM come from PyTorch's wheels on that machine.
# CUTLASS's headers come the same way: the nvidia-cutlass wheel in .whl/, unpacked into /tmp/cutlass.
# BLIS and oneMKL are not there either: when .vendors/ holds the CPU vendor plugins (bench/pack_vendors.sh here,
# carried as .vendors), CMake copies them and libblis.so.4 beside the library instead of building them, so
# cpu/libblis and cpu/onemkl run; without it both rows read unavailable and say why.
# Usage: [GPU_BUILD_ARGS="-DNAME=VALUE …"] gpu_build COMMIT LOG_DIR (GPU_BUILD_ARGS: more CMake arguments, e.g. the
# tests off for an A/B's other side, which leaves the sources, and so the commit's name, as they are)

# COMMIT labels every result (git_commit). The device tool's copy of the tree has a .git whose HEAD lags the tree it
# carries, so `$(git rev-parse --short HEAD)` typed into its command line names an older commit (2026-11-29: five runs
# labelled c0ca72f, docs/gpu-machine.md). Refused: COMMIT equal to this copy's HEAD while the sources differ from it.
# Usage: commit_names_tree COMMIT
commit_names_tree() {
  local head
  head=$(git rev-parse --short HEAD 2>/dev/null) || return 0  # no .git: nothing to compare with
  if [ "$1" = "$head" ] && ! git diff --quiet HEAD -- src apps tests include cmake CMakeLists.txt 2>/dev/null; then
    echo "gpu_build: COMMIT $1 is this copy's git HEAD, but the sources differ from it: give the commit of the tree" \
      "carried, typed out on the machine that sent it" >&2
    return 1
  fi
}
gpu_build() {
  local commit=$1 logs=$2
  commit_names_tree "$commit" || return 1
  local python site
  python=$(command -v /opt/torch/.venv/bin/python3 || command -v python3)
  site=$("$python" -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")
  local args=(-DCMAKE_CUDA_ARCHITECTURES=90a -DMATCOMPARE_GIT_COMMIT="$commit")
  local extra
  read -ra extra <<< "${GPU_BUILD_ARGS:-}"
  args+=("${extra[@]}")
  [ -d "$site/nvidia/nccl" ] && args+=(-DNCCL_ROOT="$site/nvidia/nccl")
  [ -d "$site/nvidia/nvshmem" ] && args+=(-DNVSHMEM_ROOT="$site/nvidia/nvshmem")
  # .vendors/ (23 MB) no longer fits a call beside the tracked tree; pack_vendors.sh leaves it compressed in .whl/.
  [ -d .vendors ] || [ ! -f .whl/vendors.tar.xz ] || tar -xJf .whl/vendors.tar.xz
  compgen -G ".vendors/libmatcompare_vendor_*.so" > /dev/null && args+=(-DMATCOMPARE_VENDOR_PREBUILT_DIR="$PWD/.vendors")
  if compgen -G ".whl/nvidia_cublasmp*.whl" > /dev/null; then
    "$python" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site \
      .whl/nvidia_cublasmp*.whl > "$logs/pip.log" 2>&1 && args+=(-DCUBLASMP_ROOT=/tmp/site/nvidia/cublasmp/cu13)
  fi
  # CUTLASS's headers (gpu/cutlass-tf32) from the nvidia-cutlass wheel carried in .whl/ (`pip download --no-deps -d
  # .whl nvidia-cutlass==4.2.0.0` here, or a copy of .deps/cutlass/*.whl): 6.4 MB travels, 27 MB unpack into /tmp.
  # Only cutlass_library/source/include is used: where the tree nears the 64 MiB a call carries, a zip of that
  # folder alone under the wheel's name travels in 3.4 MB (in the unpacked wheel: `zip -9 -r ../NAME.whl
  # cutlass_library/source/include`).
  local cutlass_wheel
  cutlass_wheel=$(compgen -G ".whl/nvidia_cutlass-*.whl" | tail -n 1 || true)
  if [ -n "$cutlass_wheel" ]; then
    rm -rf /tmp/cutlass && "$python" -m zipfile -e "$cutlass_wheel" /tmp/cutlass &&
      args+=(-DCUTLASS_INCLUDE_DIR=/tmp/cutlass/cutlass_library/source/include)
  fi
  PATH=$(dirname "$python"):$PATH cmake -S . -B build -G Ninja "${args[@]}" > "$logs/configure.log" 2>&1 &&
    cmake --build build -j"$(nproc)" > "$logs/build.log" 2>&1 ||
    { tail -n 40 "$logs/configure.log" "$logs/build.log"; return 1; }
  grep -E "matcompare:" "$logs/configure.log"
}
