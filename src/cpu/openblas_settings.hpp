#pragma once
// Two settings OpenBLAS reads only when it loads, from the environment: OPENBLAS_CORETYPE (an OpenBLAS older than
// the CPU picks a generic core, several times slower: Debian 12's 0.3.21 runs Prescott's kernels on a Sapphire Rapids
// Xeon) and OPENBLAS_THREAD_TIMEOUT (its idle threads wait 2^28 cycles, about a tenth of a second, after each call,
// and take the cores from whatever runs next). The CLI restarts itself with both set; a program that links matcompare
// cannot set them in time, so the library sets them through OpenBLAS's own entry points (bench/NOTES.md, "The library
// as fast as the CLI").
namespace matcompare::cpu {

// Once per process, before anything is timed, for each variable the user has not set: OpenBLAS switches to the core
// this CPU should run (openblas_core_below_cpu, where the loaded one is below it; DYNAMIC_ARCH builds), and reads
// its environment again with the timeout at 20 (2^20 cycles, about half a millisecond, as the CLI sets it) and
// restarts its pthreads pool. The process's environment is left as it was. Each step is skipped where OpenBLAS
// lacks its entry points (exported by OpenBLAS, not declared in cblas.h).
void adjust_openblas();

// What adjust_openblas changed, for the context: "" when nothing.
const char* openblas_core_chosen();  // the core it switched to
bool openblas_waits_shortened();

}  // namespace matcompare::cpu
