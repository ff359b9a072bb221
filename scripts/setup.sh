#!/usr/bin/env bash
# Installs what is missing (Debian/Ubuntu packages), then configures and builds into ./build.
# Usage: scripts/setup.sh [extra cmake arguments, e.g. -DCMAKE_CUDA_ARCHITECTURES=90a]
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake ninja-build g++ libopenblas-dev doctest-dev libcli11-dev nlohmann-json3-dev python3-matplotlib)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
# A machine that already has the tools (the GPU machine has no network) needs no package manager.
have_all_headers() {
  for h in cblas.h doctest/doctest.h CLI/CLI.hpp nlohmann/json.hpp; do
    [ -n "$(find /usr/include /usr/local/include -path "*$h" -print -quit 2>/dev/null)" ] || return 1
  done
  command -v cmake >/dev/null && command -v g++ >/dev/null
}
if [ ${#missing[@]} -gt 0 ] && ! have_all_headers; then
  echo "setup: installing ${missing[*]}" >&2
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi

generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S . -B build "${generator[@]}" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build build -j"$(nproc)"
echo "setup: built build/apps/matcompare" >&2
