#!/usr/bin/env bash
# Installs what is missing (Debian/Ubuntu packages), then configures and builds into ./build.
# Usage: scripts/setup.sh [extra cmake arguments, e.g. -DCMAKE_CUDA_ARCHITECTURES=90a]
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake ninja-build g++ libopenblas-dev doctest-dev libcli11-dev nlohmann-json3-dev python3-matplotlib)
missing=()
for p in "${packages[@]}"; do
  [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" = "install ok installed" ] || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  # A machine without a package mirror (the GPU machine) may have the tools another way: go on and
  # let CMake say what is really missing.
  if ! { "${sudo_cmd[@]}" apt-get update -qq &&
         DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null; }; then
    echo "setup: could not install ${missing[*]}; building with what is here" >&2
  fi
fi

# --- CUTLASS headers, for gpu/cutlass-tf32 (header-only; its own block) ---------------------------------------
# CUTLASS's C++ headers ship in PyPI's nvidia-cutlass wheel (cutlass_library/source/include). The wheel is kept in
# .deps/cutlass/ (git-ignored; bench/gpu_build.sh carries a copy to the GPU machine) and only its include tree is
# unpacked beside it, never into a Python; cmake/Cutlass.cmake finds .deps/cutlass/include. Without network the row
# reads unavailable with the reason.
cutlass_wheel_version=4.2.0.0
if [ ! -f .deps/cutlass/include/cutlass/version.h ]; then
  if python3 -m pip download -q --no-deps --dest .deps/cutlass "nvidia-cutlass==$cutlass_wheel_version"; then
    python3 - .deps/cutlass/nvidia_cutlass-"$cutlass_wheel_version"-*.whl .deps/cutlass/include <<'PY'
import sys, zipfile
prefix = "cutlass_library/source/include/"
with zipfile.ZipFile(sys.argv[1]) as wheel:
    for name in wheel.namelist():
        if name.startswith(prefix) and not name.endswith("/"):
            wheel.getinfo(name).filename = name[len(prefix):]
            wheel.extract(wheel.getinfo(name), sys.argv[2])
PY
  else
    echo "setup: could not download nvidia-cutlass $cutlass_wheel_version; gpu/cutlass-tf32 will be unavailable" >&2
  fi
fi
# --- end of the CUTLASS block -------------------------------------------------------------------------------

generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S . -B build "${generator[@]}" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build build -j"$(nproc)"
echo "setup: built build/apps/matcompare" >&2
