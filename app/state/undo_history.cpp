#include "state/undo_history.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "state/session_file.hpp"

namespace app {
namespace {

using json = nlohmann::json;

// Where the user is and how it looks, not what is computed: never an undo step.
constexpr const char* kNotParameters[] = {"view",       "grid",       "grid_views", "compare_view", "recent_configs",
                                          "ui_scale",   "dark_theme", "show_panel", "show_formula", "line_width",
                                          "colormap",   "pixel_mean"};

json parameters_of(const AppState& state) {
  json j = json::parse(session_to_json(state));
  for (const char* key : kNotParameters) j.erase(key);
  return j;
}

// Changed keys between two parameter objects, rope's and compare_b's keys one level down
// ("theta", "compare_b.theta"), in the session's order.
std::string changed_keys(const json& before, const json& after) {
  std::string out;
  const auto add = [&](const std::string& key) { out += (out.empty() ? "" : ", ") + key; };
  for (const auto& [key, value] : after.items()) {
    const auto it = before.find(key);
    if (it != before.end() && *it == value) continue;
    if ((key == "rope" || key == "compare_b") && it != before.end() && it->is_object() && value.is_object()) {
      for (const auto& [inner, v] : value.items())
        if (!it->contains(inner) || (*it)[inner] != v) add(key == "rope" ? inner : key + "." + inner);
    } else {
      add(key);
    }
  }
  return out;
}

}  // namespace

UndoHistory::UndoHistory(std::size_t limit) : limit_(std::max<std::size_t>(limit, 1)) {}

void UndoHistory::observe(const AppState& state, bool settled) {
  if (!past_.empty() && !settled) return;
  const json now = parameters_of(state);
  std::string text = now.dump();
  if (past_.empty()) {
    past_.push_back({std::move(text), {}});
    return;
  }
  if (text == past_.back().parameters) return;
  past_.push_back({std::move(text), changed_keys(json::parse(past_.back().parameters), now)});
  future_.clear();
  // Bounded: the oldest steps go first (the baseline moves forward with them).
  if (past_.size() > limit_ + 1) past_.erase(past_.begin(), past_.begin() + std::ptrdiff_t(past_.size() - limit_ - 1));
}

void UndoHistory::apply(const Snapshot& snapshot, AppState& state) const {
  std::vector<std::string> warnings;
  state = session_from_json(snapshot.parameters, state, warnings);
}

bool UndoHistory::undo(AppState& state) {
  if (!can_undo()) return false;
  future_.push_back(std::move(past_.back()));
  past_.pop_back();
  apply(past_.back(), state);
  return true;
}

bool UndoHistory::redo(AppState& state) {
  if (!can_redo()) return false;
  past_.push_back(std::move(future_.back()));
  future_.pop_back();
  apply(past_.back(), state);
  return true;
}

std::string UndoHistory::undo_label() const { return can_undo() ? past_.back().changed : std::string(); }
std::string UndoHistory::redo_label() const { return can_redo() ? future_.back().changed : std::string(); }

}  // namespace app
