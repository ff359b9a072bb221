#pragma once
// The threads of cpu/blis and of the host cache flush: a team that stays alive between calls and, when idle, spins for
// about half a millisecond and then sleeps. OpenMP's idle threads spin as long as GOMP_SPINCOUNT says, read once when
// libgomp loads: left at its default they take the cores from the OpenBLAS run that follows, and only an environment
// variable set before the program starts changes that (bench/NOTES.md, "The library as fast as the CLI").
#include <functional>

namespace matcompare::cpu {

// Runs fn(thread, team) for thread = 0 .. team - 1 at once, the calling thread as thread 0, and returns when every
// one has returned. team is at least 1. fn must not throw: a worker's exception ends the program, and where thread 0
// throws, the call waits for the others first (for ever, were they waiting for thread 0). fn must not call
// run_on_team. Calls from several threads run one after another.
void run_on_team(int team, const std::function<void(int thread, int team)>& fn);

}  // namespace matcompare::cpu
