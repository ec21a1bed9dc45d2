#include "cli/transfer_progress.hpp"

#include <unistd.h>

#include <cstdio>
#include <iostream>

#include "state/weights_usage.hpp"

namespace app {

std::string byte_rate(double bps) { return byte_count(static_cast<std::uint64_t>(bps > 0 ? bps : 0)) + "/s"; }

TransferProgress::TransferProgress(std::ostream& err, std::string command, std::string what)
    : err_(err), command_(std::move(command)), what_(std::move(what)), tty_(&err == &std::cerr && ::isatty(2) == 1) {}

TransferProgress::~TransferProgress() { clear(); }

void TransferProgress::clear() {
  if (!shown_) return;
  err_ << "\r" << std::string(100, ' ') << "\r" << std::flush;
  shown_ = false;
}

void TransferProgress::draw(const std::string& line) {
  if (!tty_) return;
  err_ << "\r" << line << (line.size() < 100 ? std::string(100 - line.size(), ' ') : "") << "\r" << std::flush;
  shown_ = true;
}

void TransferProgress::notices(const std::vector<std::string>& lines) {
  if (lines.empty()) return;
  clear();
  for (const auto& l : lines) err_ << command_ << ": " << l << "\n";
  err_ << std::flush;
}

void TransferProgress::update(const WeightsJobProgress& p) {
  // A few times a second, after the first half second (a fast read shows nothing).
  if (p.seconds < 0.5 || p.seconds - last_ < 0.2) return;
  last_ = p.seconds;
  std::string line;
  if (p.stage != "q/k") {
    line = p.stage + " of " + what_ + ": " + byte_count(p.bytes_moved);
  } else {
    char pct[16];
    std::snprintf(pct, sizeof pct, "%d%%", static_cast<int>(100.0 * p.fraction));
    line = "q/k of " + what_ + ": layer " + std::to_string(p.layer + 1) + " of " + std::to_string(p.layers) + ", " +
           byte_count(p.bytes_read) + " of " + byte_count(p.bytes_total) + " (" + pct + ")";
  }
  if (p.remote && p.seconds > 0) line += ", " + byte_rate(static_cast<double>(p.bytes_moved) / p.seconds) + " moved";
  if (!p.notice.empty()) line += " (waiting: see above)";
  draw(line);
}

void TransferProgress::update_bytes(const std::string& stage, std::uint64_t moved, double seconds) {
  if (seconds < 0.5 || seconds - last_ < 0.2) return;
  last_ = seconds;
  draw(stage + " of " + what_ + ": " + byte_count(moved) + ", " + byte_rate(static_cast<double>(moved) / seconds));
}

}  // namespace app
