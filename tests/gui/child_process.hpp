#pragma once
// Runs the pe-viz binary (PE_VIZ_BINARY) as a child with fork/exec — no shell — so a test
// can tell an exit from a signal, enforce a timeout (a hang fails instead of stalling CI)
// and SIGKILL it at a chosen moment. stdout/stderr go to files in a private directory.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace pe_test {

struct ChildResult {
  bool exited = false;     // exit() / return from main
  int exit_code = -1;      // when exited
  int signal = 0;          // when killed by a signal
  bool timed_out = false;  // we killed it at the deadline
  double seconds = 0;
  std::string out, err;
};

inline std::string describe(const ChildResult& r) {
  std::string s = r.timed_out ? "TIMED OUT" : r.exited ? "exit " + std::to_string(r.exit_code) : "signal " + std::to_string(r.signal);
  s += " after " + std::to_string(r.seconds) + " s";
  return s + "\n--- stdout ---\n" + r.out.substr(0, 2000) + "\n--- stderr ---\n" + r.err.substr(0, 3000);
}

class Child {
 public:
  // argv excludes the program; env entries ("KEY=value") are added to the inherited ones.
  // `io_dir` receives stdout/stderr files (keep it apart from directories under test).
  Child(const std::vector<std::string>& args, const std::vector<std::string>& env, const std::filesystem::path& io_dir,
        const std::filesystem::path& cwd = {})
      : out_(io_dir / ("stdout-" + std::to_string(++counter()))), err_(io_dir / ("stderr-" + std::to_string(counter()))) {
    std::vector<std::string> argv_s{PE_VIZ_BINARY};
    argv_s.insert(argv_s.end(), args.begin(), args.end());
    start_ = std::chrono::steady_clock::now();
    pid_ = ::fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
      // Child: only async-signal-safe-ish calls until exec (the test binary is single-threaded here).
      for (const auto& e : env) ::putenv(const_cast<char*>(e.c_str()));
      if (!cwd.empty() && ::chdir(cwd.c_str()) != 0) ::_exit(126);
      const int o = ::open(out_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const int e = ::open(err_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (o < 0 || e < 0) ::_exit(126);
      ::dup2(o, 1);
      ::dup2(e, 2);
      std::vector<char*> argv;
      for (auto& a : argv_s) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  ~Child() {
    if (pid_ > 0 && !reaped_) {
      ::kill(pid_, SIGKILL);
      int status = 0;
      ::waitpid(pid_, &status, 0);
    }
  }

  pid_t pid() const { return pid_; }

  // Waits up to `timeout_seconds`, polling `tick` (if given) every few ms; SIGKILLs on timeout.
  ChildResult wait(double timeout_seconds = 60, const std::function<void()>& tick = {}) {
    ChildResult r;
    const auto deadline = start_ + std::chrono::milliseconds(static_cast<long long>(timeout_seconds * 1000));
    int status = 0;
    for (;;) {
      const pid_t got = ::waitpid(pid_, &status, WNOHANG);
      if (got == pid_) break;
      if (std::chrono::steady_clock::now() > deadline) {
        r.timed_out = true;
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, &status, 0);
        break;
      }
      if (tick) tick();
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    reaped_ = true;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    r.exited = WIFEXITED(status);
    if (r.exited) r.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
    r.out = slurp(out_);
    r.err = slurp(err_);
    return r;
  }

  // SIGKILL now and reap (a zombie would still look alive to kill(pid, 0)).
  ChildResult kill_and_wait() {
    ::kill(pid_, SIGKILL);
    return wait(60);
  }

 private:
  static int& counter() {
    static int n = 0;
    return n;
  }
  static std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }

  std::filesystem::path out_, err_;
  pid_t pid_ = -1;
  bool reaped_ = false;
  std::chrono::steady_clock::time_point start_;
};

// HOME and XDG_CONFIG_HOME inside `home`: the user's ~/.config/pe-viz is never touched.
inline std::vector<std::string> isolated_env(const std::filesystem::path& home) {
  return {"HOME=" + home.string(), "XDG_CONFIG_HOME=" + (home / ".config").string()};
}

}  // namespace pe_test
