#pragma once
// Ctrl-C during a long command (a model read from the Hub): the first one asks the work to stop
// at its next step — transfers cancelled, nothing half-written left in the caches — and the
// command ends with 130; a second one ends the process at once (the default action).
namespace app {

class InterruptGuard {
 public:
  InterruptGuard();   // installs the handler
  ~InterruptGuard();  // restores the previous one
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
  static bool interrupted();
};

// The exit code of a command stopped by Ctrl-C (128 + SIGINT, as a shell reports it).
inline constexpr int kInterruptedExit = 130;

}  // namespace app
