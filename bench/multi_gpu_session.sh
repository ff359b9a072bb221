#!/usr/bin/env bash
# Issue 10's runs on a machine with several GPUs (nvidia-h200-x2), in one call:
#   bench/multi_gpu_session.sh OUT_DIR COMMIT
# builds (sm_90a), runs the tests, compute-sanitizer memcheck on the cuBLASXt row at a small shape, then the
# acceptance runs: --sizes 4096,8192,16384 with --filter cublas on every GPU and on GPU 0 alone (the 1-GPU point
# of the scaling curve), a cuBLASXt tile sweep at 16384, and cuBLASXt out of core at 131072 (three 64 GiB
# matrices, more than one GPU holds), verified on a sample of C's rows. If .whl/ holds the cuBLASMp wheel it is
# installed into /tmp/site and CMake pointed at it (the cuBLASMp row itself is not implemented yet).
# Results (JSON) in OUT_DIR/results.tar.gz, logs in OUT_DIR/logs.tar.gz; a summary is printed.
set -uo pipefail
out=$1 commit=$2
work=$(mktemp -d)
mkdir -p "$work/logs" "$work/results"
export PATH=/usr/local/cuda/bin:$PATH
# NVLink multicast stays off on this machine: NCCL, PyTorch and NVSHMEM must not call cuMulticastCreate.
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
cli=build/apps/matcompare
python=$(command -v /opt/torch/.venv/bin/python3 || command -v python3)

nvidia-smi > "$work/logs/smi.txt" 2>&1
nvidia-smi topo -m >> "$work/logs/smi.txt" 2>&1
grep -E "MemTotal" /proc/meminfo; echo "cgroup memory.max: $(cat /sys/fs/cgroup/memory.max 2>/dev/null)"
"$python" -m pip show nvidia-nccl-cu13 nvidia-cublas nvidia-nvshmem-cu13 2>&1 | grep -E "^(Name|Version|Location)"
# Where the wheels put NCCL and NVSHMEM: CMake's hints (it also searches this python's site-packages itself).
site=$("$python" -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")
cmake_args=(-DCMAKE_CUDA_ARCHITECTURES=90a -DMATCOMPARE_GIT_COMMIT="$commit" -DNCCL_ROOT="$site/nvidia/nccl"
            -DNVSHMEM_ROOT="$site/nvidia/nvshmem")
if compgen -G ".whl/*.whl" > /dev/null; then
  "$python" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
  cmake_args+=(-DCUBLASMP_ROOT=/tmp/site/nvidia/cublasmp/cu13)
  ls /tmp/site/nvidia/cublasmp/cu13/lib
fi
PATH=$(dirname "$python"):$PATH cmake -S . -B build -G Ninja "${cmake_args[@]}" > "$work/logs/configure.log" 2>&1 &&
  cmake --build build -j"$(nproc)" > "$work/logs/build.log" 2>&1 || { tail -40 "$work/logs/configure.log" "$work/logs/build.log"; exit 1; }
grep -E "matcompare:" "$work/logs/configure.log"

ctest --test-dir build --output-on-failure -j4 > "$work/logs/ctest.log" 2>&1
grep -E "Test +#|tests passed" "$work/logs/ctest.log"
compute-sanitizer --tool memcheck --error-exitcode 9 $cli --size 1000 --filter cublasxt --devices all \
  --repetitions 1 --min-time 0 --format csv > "$work/logs/sanitizer_memcheck.log" 2>&1
echo "memcheck exit $?: $(grep -E 'ERROR SUMMARY' "$work/logs/sanitizer_memcheck.log" | tail -1)"

summary() {
  "$python" - "$1" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    print(f"  {r['backend']:20s} {r.get('devices') or '-'} GPU {r['m']:>6} {r['status']:11s} "
          f"{r['median_ms'] or 0:10.1f} ms total {r['total_ms'] or 0:10.1f} ms {r['gflops'] or 0:8.0f} GFLOP/s "
          f"speedup {r.get('speedup') or 0:.2f} eff {r.get('efficiency') or 0:.2f} pass {r['passed']} "
          f"{r.get('verification_sample') or ''} {r['reason'][:90] if r['status'] != 'ok' else ''}")
PY
}
run() { local name=$1; shift; "$@" --format json --out "$work/results/$name.json" 2>> "$work/logs/runs.log"; echo "$name exit $?"; summary "$work/results/$name.json"; }

run scaling_all_gpus $cli --sizes 4096,8192,16384 --devices all --filter cublas
run scaling_one_gpu $cli --sizes 4096,8192,16384 --devices 0 --filter cublas
for tile in ${TILES:-1024 2048 4096 8192}; do
  run "cublasxt_tile_$tile" env MATCOMPARE_CUBLASXT_BLOCK_DIM=$tile $cli --size 16384 --devices all --filter cublasxt
done
# Three 64 GiB matrices: one sample (the verification run), no time limit to speak of.
/usr/bin/time -v $cli --size 131072 --devices all --filter cublasxt --repetitions 1 --min-time 0 --budget 3600 \
  --time-limit 3600 --format json --out "$work/results/out_of_core_131072.json" 2>> "$work/logs/out_of_core.log"
echo "out_of_core_131072 exit $?"; grep -E "Maximum resident|Elapsed" "$work/logs/out_of_core.log"
summary "$work/results/out_of_core_131072.json"
tar -C "$work" -czf "$out/logs.tar.gz" logs
tar -C "$work" -czf "$out/results.tar.gz" results
