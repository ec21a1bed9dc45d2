#pragma once
// The stand-in Hub (tests/hub/test_hub.py) for the GUI and CLI tests: started on free ports
// serving a folder of repositories, its byte counts read from the stats file it rewrites after
// every request, killed when the test ends.
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace pe_test {

inline std::string read_file_text(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The stand-in Hub, serving `root`, killed when the test ends.
class TestHub {
 public:
  TestHub(const std::filesystem::path& root, const std::filesystem::path& dir, const std::vector<std::string>& flags = {})
      : ready_(dir / "hub.ready"), stats_(dir / "hub.stats") {
    std::vector<std::string> argv = {"/usr/bin/python3", std::string(PE_SOURCE_DIR) + "/tests/hub/test_hub.py", root.string(),
                                     "--ready", ready_.string(), "--stats", stats_.string()};
    argv.insert(argv.end(), flags.begin(), flags.end());
    pid_ = ::fork();
    const std::string log = (dir / "hub.log").string();
    if (pid_ == 0) {
      // Dies with the test (a crashed test leaves no server holding ctest's output pipe), and
      // writes nothing to that pipe: its stderr goes to hub.log beside the stats.
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      const int null = ::open("/dev/null", O_WRONLY);
      ::dup2(null, 1);
      const int err = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
      if (err >= 0) ::dup2(err, 2);
      std::vector<char*> a;
      for (auto& s : argv) a.push_back(s.data());
      a.push_back(nullptr);
      ::execv(a[0], a.data());
      ::_exit(127);
    }
    for (int k = 0; k < 200 && !std::filesystem::exists(ready_); ++k) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::istringstream line(read_file_text(ready_));
    std::string word;
    line >> word >> endpoint_;
  }
  ~TestHub() {
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
  }
  const std::string& endpoint() const { return endpoint_; }
  nlohmann::json stats() const {
    const std::string text = read_file_text(stats_);
    return text.empty() ? nlohmann::json{{"total_bytes", 0}, {"requests", nlohmann::json::array()}, {"faults_served", nlohmann::json::array()}} : nlohmann::json::parse(text);
  }

 private:
  std::filesystem::path ready_, stats_;
  pid_t pid_ = -1;
  std::string endpoint_;
};

}  // namespace pe_test
