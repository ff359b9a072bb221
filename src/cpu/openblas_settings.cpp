#include "openblas_settings.hpp"

#include <cblas.h>

#include <atomic>
#include <cstdlib>
#include <mutex>

#include "matcompare/context.hpp"

// Exported by OpenBLAS's shared library for its own use; weak, so an OpenBLAS without them leaves these null.
extern "C" {
void openblas_read_env(void) __attribute__((weak));
int blas_thread_shutdown_(void) __attribute__((weak));
int blas_thread_init(void) __attribute__((weak));
void gotoblas_dynamic_init(void) __attribute__((weak));
void gotoblas_dynamic_quit(void) __attribute__((weak));
}

namespace matcompare::cpu {
namespace {

std::atomic<const char*> chosen_core{""};
std::atomic<bool> shortened{false};

// Runs `read` with `name` set to `value` in the environment, then unsets it again.
template <typename Read>
void with_variable(const char* name, const char* value, Read read) {
  setenv(name, value, 1);
  read();
  unsetenv(name);
}

}  // namespace

void adjust_openblas() {
  static std::once_flag once;
  std::call_once(once, [] {
    const char* core = openblas_core_below_cpu();
    if (core && !std::getenv("OPENBLAS_CORETYPE") && gotoblas_dynamic_init && gotoblas_dynamic_quit) {
      // The kernel table is chosen again from OPENBLAS_CORETYPE; no OpenBLAS call runs meanwhile.
      with_variable("OPENBLAS_CORETYPE", core, [] {
        gotoblas_dynamic_quit();
        gotoblas_dynamic_init();
      });
      chosen_core = core;
    }
    constexpr int kPthreads = 1;  // openblas_get_parallel(): 0 sequential, 1 pthreads, 2 OpenMP
    if (!std::getenv("OPENBLAS_THREAD_TIMEOUT") && openblas_get_parallel() == kPthreads && openblas_read_env &&
        blas_thread_shutdown_ && blas_thread_init) {
      with_variable("OPENBLAS_THREAD_TIMEOUT", "20", [] { openblas_read_env(); });
      // The pool takes the timeout when it starts.
      blas_thread_shutdown_();
      blas_thread_init();
      shortened = true;
    }
  });
}

const char* openblas_core_chosen() { return chosen_core; }

bool openblas_waits_shortened() { return shortened; }

}  // namespace matcompare::cpu
