#!/usr/bin/env bash
# Installs what is missing (Debian/Ubuntu packages; oneMKL's static libraries from PyPI into .deps/mkl), then
# configures and builds into ./build.
# Usage: scripts/setup.sh [extra cmake arguments, e.g. -DCMAKE_CUDA_ARCHITECTURES=90a]
set -euo pipefail
cd "$(dirname "$0")/.."

# libblis-openmp-dev: BLIS for cpu/libblis, the OpenMP variant (it shares libgomp with the library).
packages=(cmake ninja-build g++ libopenblas-dev doctest-dev libcli11-dev nlohmann-json3-dev python3-matplotlib
          libblis-openmp-dev)
# pip, to fetch oneMKL's wheels, where python3 has none (a fresh Debian 12).
python3 -m pip --version >/dev/null 2>&1 || packages+=(python3-pip)
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
# oneMKL for cpu/onemkl: the mkl-static and mkl-include wheels (about 250 MB, from pip's cache when it has them),
# unpacked into .deps/mkl (git-ignored; never into a Python): the three static libraries of an LP64, GNU-threaded
# link, the headers and the licences. cmake/Vendors.cmake finds them there. Without network (the GPU machine) this
# fails and the build goes on without cpu/onemkl's plugin, unless one is carried (bench/pack_vendors.sh).
mkl_version=2026.2.0
mkl_dir=.deps/mkl
if [ "$(cat "$mkl_dir/VERSION" 2>/dev/null)" != "$mkl_version" ]; then
  echo "setup: fetching oneMKL $mkl_version (mkl-static, mkl-include) into $mkl_dir" >&2
  rm -rf "$mkl_dir" .deps/wheels
  if python3 -m pip download -q --no-deps --only-binary=:all: -d .deps/wheels \
       "mkl-static==$mkl_version" "mkl-include==$mkl_version" >&2; then
    python3 - "$mkl_dir" .deps/wheels/*.whl <<'PY'
import os, shutil, sys, zipfile
dest, wheels = sys.argv[1], sys.argv[2:]
keep = {"lib/libmkl_intel_lp64.a", "lib/libmkl_gnu_thread.a", "lib/libmkl_core.a"}
for wheel in wheels:
    with zipfile.ZipFile(wheel) as z:
        for item in z.infolist():
            if ".data/data/" not in item.filename or item.is_dir():
                continue
            rel = item.filename.split(".data/data/", 1)[1]
            if rel in keep or rel.startswith("include/") or rel.startswith("share/doc/mkl/licensing/"):
                out = os.path.join(dest, rel)
                os.makedirs(os.path.dirname(out), exist_ok=True)
                with z.open(item) as src, open(out, "wb") as dst:
                    shutil.copyfileobj(src, dst)
PY
    echo "$mkl_version" > "$mkl_dir/VERSION"
  else
    echo "setup: could not fetch oneMKL; cpu/onemkl will read unavailable" >&2
  fi
  rm -rf .deps/wheels
fi

generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S . -B build "${generator[@]}" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build build -j"$(nproc)"
echo "setup: built build/apps/matcompare" >&2
