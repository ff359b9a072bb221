#!/usr/bin/env bash
# Builds the CPU vendor plugins here and fills a git-ignored folder (default .vendors/) with what a machine without
# BLIS or oneMKL needs to run cpu/libblis and cpu/onemkl (the GPU machine: no network, no libblis, no MKL):
#   libmatcompare_vendor_blis.so  our BLIS plugin (stripped), RUNPATH $ORIGIN first
#   libblis.so.4                  Debian's libblis (OpenMP variant), the one the plugin was built against
#   libmatcompare_vendor_mkl.so   our oneMKL plugin, MKL linked in statically (stripped)
#   MANIFEST.txt                  sizes, sha256, versions, each file's NEEDED libraries and newest glibc symbol
# Then checks that nothing outside the folder is needed but the C runtime and libgomp, and that the library here
# loads the folder alone (MATCOMPARE_VENDOR_DIR). Needs what scripts/setup.sh installs (libblis-openmp-dev,
# .deps/mkl). Carry the folder with the device tool (carry: [".vendors"]); bench/gpu_build.sh builds with it.
# Usage: bench/pack_vendors.sh [OUT_DIR]   (BUILD_DIR=build-vendors by default)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-.vendors}
build=${BUILD_DIR:-build-vendors}

generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S . -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DMATCOMPARE_WITH_CUDA=OFF \
  -DMATCOMPARE_VENDOR_PREBUILT_DIR= | grep "matcompare: cpu/" >&2
cmake --build "$build" -j"$(nproc)" --target matcompare_vendor_blis matcompare_vendor_mkl matcompare_cli >&2

rm -rf "$out"
mkdir -p "$out"
for name in blis mkl; do
  strip --strip-unneeded -o "$out/libmatcompare_vendor_$name.so" "$build/src/libmatcompare_vendor_$name.so"
done
# The libblis.so.4 the plugin resolves here (its RUNPATH names the variant it was built against).
blis=$(ldd "$build/src/libmatcompare_vendor_blis.so" | awk '$1 == "libblis.so.4" { print $3 }')
[ -f "$blis" ] || { echo "pack_vendors: the BLIS plugin does not find libblis.so.4" >&2; exit 1; }
cp -L "$blis" "$out/libblis.so.4"

# Everything the files need must be in the folder or be part of any Linux with g++ (glibc, libgomp).
allowed='^(libc|libm|libpthread|libdl|librt|libgomp|ld-linux-x86-64)\.so'
status=0
{
  echo "# CPU vendor plugins packed at $(git rev-parse --short HEAD 2>/dev/null || echo unknown) on $(hostname)"
  for file in "$out"/*.so*; do
    name=$(basename "$file")
    needed=$(readelf -d "$file" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
    glibc=$(objdump -T "$file" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -n 1)
    echo "$name $(stat -c %s "$file") bytes sha256 $(sha256sum "$file" | cut -c1-16) needs: $needed(newest $glibc)"
    for lib in $needed; do
      if [ ! -e "$out/$lib" ] && ! [[ $lib =~ $allowed ]]; then
        echo "pack_vendors: $name needs $lib, which is neither in $out nor a C or OpenMP runtime" >&2
        status=1
      fi
    done
  done
} > "$out/MANIFEST.txt"
# The folder alone serves both rows: the library loads it and libblis.so.4 comes from beside the plugin.
MATCOMPARE_VENDOR_DIR=$out "$build/apps/matcompare" --sizes 96 --filter cpu/libblis,cpu/onemkl --format json \
  --repetitions 1 --min-time 0 > "$out/check.json"
python3 - "$out/check.json" >> "$out/MANIFEST.txt" <<'PY' || status=1
import json, sys
document = json.load(open(sys.argv[1]))
for vendor in document["context"]["vendors"]:
    print(f"{vendor['backend']}: {vendor['library']} {vendor['version']} | {vendor['build']} | {vendor['kernel_path']}"
          f" | {vendor['unavailable_reason']}")
bad = [r["backend"] + ": " + r["status"] + " " + r["reason"] for r in document["results"] if r["status"] != "ok"]
if bad:
    sys.exit("pack_vendors: " + "; ".join(bad))
PY
rm -f "$out/check.json"
taken=$(ldd "$out/libmatcompare_vendor_blis.so" | awk '$1 == "libblis.so.4" { print $3 }')
[ "$(readlink -f "$taken")" = "$(readlink -f "$out/libblis.so.4")" ] || {
  echo "pack_vendors: the packed BLIS plugin does not take the libblis.so.4 beside it" >&2
  status=1
}
cat "$out/MANIFEST.txt"
# The tracked tree and .vendors/ together passed a device call's 64 MiB: the same files compressed travel in .whl/.
mkdir -p .whl &&
  tar -cJf .whl/vendors.tar.xz --transform "s|^$(basename "$out")|.vendors|" -C "$(dirname "$out")" "$(basename "$out")"
echo "pack_vendors: $(du -sh "$out" | cut -f1) in $out, $(du -sh .whl/vendors.tar.xz | cut -f1) in .whl/vendors.tar.xz" >&2
exit $status
