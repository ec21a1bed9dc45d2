#pragma once
// What a command shows on stderr while it reads a model from the Hub: a progress line that
// rewrites itself on a terminal ("q/k of ORG/NAME: layer 12 of 32, 420 MiB of 1.25 GiB (33%),
// 84.1 MiB/s from the network"), and each announcement (a rate limit's wait, a retry) as a line
// of its own, terminal or not.
#include <iosfwd>
#include <string>
#include <vector>

#include "state/weights_job.hpp"

namespace app {

class TransferProgress {
 public:
  // `command` prefixes the announcements ("pe-viz weights"); the progress line is drawn only
  // when `err` is the process's stderr on a terminal.
  TransferProgress(std::ostream& err, std::string command, std::string what);
  ~TransferProgress();  // clears the progress line
  void notices(const std::vector<std::string>& lines);
  void update(const WeightsJobProgress& p);
  // The same for a download of `total` bytes ("config.json of ORG/NAME: 1.2 KiB").
  void update_bytes(const std::string& stage, std::uint64_t moved, double seconds);
  void clear();

 private:
  void draw(const std::string& line);
  std::ostream& err_;
  std::string command_, what_;
  bool tty_ = false, shown_ = false;
  double last_ = -1.0;
};

// "84.1 MiB/s"
std::string byte_rate(double bytes_per_second);

}  // namespace app
