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

generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S . -B build "${generator[@]}" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build build -j"$(nproc)"
echo "setup: built build/apps/matcompare" >&2
