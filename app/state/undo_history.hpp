#pragma once
// Undo / redo of parameter changes. A step is the difference between two settled states:
// a slider drag is one step (recorded when the slider is released), loading a preset or a
// config.json is one step, and anything that leaves the parameters as they were (a config
// that failed to load) records nothing. The state is AppState itself, snapshotted as its
// session JSON, so there is nothing to keep in sync. Navigation and display choices (view,
// grid, theme, UI scale, line width, colormap, panels) are not steps.
#include <cstddef>
#include <string>
#include <vector>

#include "state/app_state.hpp"

namespace app {

class UndoHistory {
 public:
  static constexpr std::size_t kDefaultLimit = 200;
  explicit UndoHistory(std::size_t limit = kDefaultLimit);

  // Call once per frame after the UI ran. `settled` is false while a change is still in
  // progress (a widget held, an animation running): it is recorded once it settles.
  void observe(const AppState& state, bool settled);

  bool can_undo() const { return past_.size() > 1; }
  bool can_redo() const { return !future_.empty(); }
  // Restore the previous (next) settled parameters into `state`, keeping its view and
  // display choices. Return false when there is nothing to undo (redo).
  bool undo(AppState& state);
  bool redo(AppState& state);
  // "theta, length": the parameters the next undo (redo) changes, for the Edit menu.
  std::string undo_label() const;
  std::string redo_label() const;
  std::size_t undo_steps() const { return past_.empty() ? 0 : past_.size() - 1; }
  std::size_t redo_steps() const { return future_.size(); }

 private:
  struct Snapshot {
    std::string parameters;  // the session JSON without navigation and display keys
    std::string changed;     // what differs from the snapshot before it
  };
  void apply(const Snapshot& snapshot, AppState& state) const;
  std::size_t limit_;
  std::vector<Snapshot> past_;  // back() is the current settled state
  std::vector<Snapshot> future_;
};

}  // namespace app
