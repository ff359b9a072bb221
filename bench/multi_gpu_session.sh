#!/usr/bin/env bash
# Issue 10's runs on a machine with one or several GPUs (nvidia-h200-x2 for the acceptance):
#   bench/multi_gpu_session.sh OUT_DIR COMMIT MODES      MODES: comma-separated, run in the order given
#     check        every test (the GPU suites run gpu/cublasmp-fp32 on 1 and 2 GPUs), compute-sanitizer memcheck
#                  on the cuBLASXt and cuBLASMp rows at an odd shape with alpha/beta != (1, 0)
#     scaling      --sizes 4096,8192,16384 --filter cublas on every GPU; the multi-GPU rows on GPU 0 alone (1-GPU point)
#     tiles        cuBLASXt's tile edge swept at 16384 (TILES="1024 2048 4096 8192")
#     out-of-core  cuBLASXt at 131072 (three 64 GiB matrices, more than one GPU holds), verified on a sample of
#                  C's rows, one sample
# It builds first (bench/gpu_build.sh; the cuBLASMp row needs its wheel in .whl/, else it reads unavailable).
# Results (JSON) in OUT_DIR/results.tar.gz, logs in OUT_DIR/logs.tar.gz; a summary is printed.
set -uo pipefail
out=$1 commit=$2 modes=${3:-check,scaling,tiles,out-of-core}
work=$(mktemp -d)
mkdir -p "$work/logs" "$work/results"
# What ran comes back even when a step fails or the run is stopped (timeout sends TERM).
pack() { tar -C "$work" -czf "$out/logs.tar.gz" logs; tar -C "$work" -czf "$out/results.tar.gz" results; }
trap pack EXIT
trap 'exit 143' TERM INT
export PATH=/usr/local/cuda/bin:$PATH
# NVLink multicast stays off on this machine: NCCL, PyTorch and NVSHMEM must not call cuMulticastCreate.
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
cli=build/apps/matcompare
python=$(command -v /opt/torch/.venv/bin/python3 || command -v python3)

nvidia-smi > "$work/logs/smi.txt" 2>&1
nvidia-smi topo -m >> "$work/logs/smi.txt" 2>&1
grep -E "MemTotal" /proc/meminfo; echo "cgroup memory.max: $(cat /sys/fs/cgroup/memory.max 2>/dev/null)"
"$python" -m pip show nvidia-nccl-cu13 nvidia-cublas nvidia-nvshmem-cu13 2>&1 | grep -E "^(Name|Version|Location)"
source bench/gpu_build.sh
gpu_build "$commit" "$work/logs" || exit 1

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

for mode in ${modes//,/ }; do
case $mode in
check)
  ctest --test-dir build --output-on-failure -j4 > "$work/logs/ctest.log" 2>&1
  grep -E "Test +#|tests passed|gpu/" "$work/logs/ctest.log" | head -40
  for row in cublasxt cublasmp; do
    # cuBLASMp's workers: memory errors only; NCCL's set-up makes CUDA API errors it handles (see gpu_session.sh).
    api_errors=all; [ $row = cublasmp ] && api_errors=no
    compute-sanitizer --tool memcheck --error-exitcode 9 --target-processes all --report-api-errors $api_errors \
      $cli --m 1000 --n 1001 --k 999 --alpha 0.5 --beta 2 --filter $row --devices all --repetitions 1 --min-time 0 --format csv \
      > "$work/logs/sanitizer_memcheck_$row.log" 2>&1
    echo "memcheck $row exit $?: $(grep -E 'ERROR SUMMARY' "$work/logs/sanitizer_memcheck_$row.log" | tail -1)" \
      "rows passed: $(grep -c ',passed,' "$work/logs/sanitizer_memcheck_$row.log")"
  done
;;
scaling)
  # The acceptance's --filter cublas on every GPU; GPU 0 alone only for the multi-GPU rows and their baseline.
  run scaling_all_gpus $cli --sizes 4096,8192,16384 --devices all --filter cublas
  run scaling_one_gpu $cli --sizes 4096,8192,16384 --devices 0 --filter cublasxt,cublasmp
;;
tiles)
  for tile in ${TILES:-1024 2048 4096 8192}; do
    run "cublasxt_tile_$tile" env MATCOMPARE_CUBLASXT_BLOCK_DIM=$tile $cli --size 16384 --devices all --filter cublasxt
  done
;;
out-of-core)
  # Three 64 GiB matrices: one sample (the verification run), no time limit to speak of.
  /usr/bin/time -v $cli --size 131072 --devices all --filter cublasxt --repetitions 1 --min-time 0 --budget 3600 \
    --time-limit 3600 --format json --out "$work/results/out_of_core_131072.json" 2>> "$work/logs/out_of_core.log"
  echo "out_of_core_131072 exit $?"; grep -E "Maximum resident|Elapsed" "$work/logs/out_of_core.log"
  summary "$work/results/out_of_core_131072.json"
;;
*) echo "unknown mode $mode"; exit 2 ;;
esac
done
