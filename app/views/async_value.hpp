// A value computed from a key, recomputed on a worker thread while the key keeps
// changing (a slider being dragged), with the last value on screen meanwhile. A view
// keeps one per Derived (compare's two sides differ) through slot_for().
//
// Settling: a change made while a worker runs starts the next worker as soon as that one
// finishes, so the picture shows the exact value for the last key within two compute
// times of the last change. Exports ask for the exact value (`wait`), so files always hold
// it: computed in place, never by waiting for the worker, which runs at background
// priority (platform/worker.hpp); a worker busy meanwhile has its result dropped.
#pragma once

#include <chrono>
#include <future>
#include <map>
#include <optional>
#include <utility>

#include "platform/frame_pacing.hpp"
#include "platform/worker.hpp"

namespace app {

template <class Key, class Value>
class AsyncValue {
 public:
  // The value to draw for `key`: exact when `wait` or when nothing is on screen yet (the
  // first frame is never blank), else the newest finished one. `compute` must not throw
  // (catch inside and carry the error in Value) and must not touch ImGui.
  template <class Compute>
  const Value& get(const Key& key, bool wait, Compute compute) {
    if (job_.valid() && job_.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
      Value done = job_.get();
      if (!job_dropped_) {
        value_ = std::move(done);
        value_key_ = job_key_;
      }
      job_dropped_ = false;
    }
    if (value_key_ == key) return *value_;
    if (wait || !value_) {
      value_ = compute(key);
      value_key_ = key;
      job_dropped_ = job_.valid();  // older than what is on screen now
    } else if (!job_.valid()) {
      job_key_ = key;
      // The finished worker wakes the GUI, which may be asleep waiting for input.
      job_ = start_worker([compute, key] {
        Value v = compute(key);
        wake_gui();
        return v;
      });
    } else {
      // A worker is busy with an older key: ask for a frame soon, when it will have finished.
      request_frame_within(0.02);
    }
    return *value_;
  }
  // The value on screen is not yet the one for the newest key.
  bool settling() const { return job_.valid(); }
  // The value on screen (null before the first), for a compute that can reuse its parts.
  const Value* latest() const { return value_ ? &*value_ : nullptr; }

 private:
  std::optional<Value> value_;
  std::optional<Key> value_key_;
  std::future<Value> job_;
  Key job_key_{};
  bool job_dropped_ = false;
};

// One AsyncValue per Derived (the main state, compare's B side, test sessions); finished
// slots of vanished Derived objects are dropped so the map stays small.
template <class Slot, class Owner>
Slot& slot_for(std::map<const Owner*, Slot>& slots, const Owner* owner) {
  auto it = slots.find(owner);
  if (it != slots.end()) return it->second;
  if (slots.size() >= 4) {
    for (auto i = slots.begin(); i != slots.end();) i = i->second.settling() ? std::next(i) : slots.erase(i);
  }
  return slots[owner];
}

}  // namespace app
