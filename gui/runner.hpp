#pragma once
// Any calculator run off the UI thread: the very same command as `musket`, in a worker thread
// with a cli::run_context installed, so commands that can be slow (simulations, campaigns,
// sweeps) report how far they are and stop when asked. A command that does not read the context
// still runs off the UI thread: its progress is unknown (an indeterminate indicator) and a
// cancel it does not heed abandons the run, whose result is then dropped.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "gui/model.hpp"

namespace musket::gui {

class background_runner {
 public:
  background_runner() = default;
  background_runner(const background_runner&) = delete;
  background_runner& operator=(const background_runner&) = delete;
  ~background_runner();  // cancels every run and waits for its thread

  // Starts `calc` with `values`; the run in progress (if any) is asked to stop and its result
  // will never be handed out. `key` names the inputs (the panel's values.dump()).
  void start(const calculator& calc, const json& values, const std::string& key);
  // Asks the current run to stop. A command that heeds it finishes early with what it has (a
  // simulation: the trials done so far, marked cancelled); one that does not is abandoned after
  // `grace` (its thread finishes unseen). A command that reports progress gets at least 3 s (it
  // checks between chunks of trials).
  void cancel(std::chrono::milliseconds grace = std::chrono::milliseconds(300));

  bool running() const;           // a current run has not finished (and was not abandoned)
  bool cancel_requested() const;  // the current run was asked to stop
  const std::string& key() const { return key_; }
  std::uint64_t done() const;   // work done so far (trials, sweep points), as the command reports it
  std::uint64_t total() const;  // work asked for; 0 = unknown (the command does not say)
  double seconds() const;       // since the current run started

  // The current run's result once it has finished (handed out once), with the key it was for.
  struct finished {
    std::string key;
    outcome result;
    double ms = 0;
    bool abandoned = false;  // cancelled and not heeded: no result
  };
  std::optional<finished> take_finished();
  // Waits up to `limit` for the current run; true when it has finished.
  bool wait_for(std::chrono::milliseconds limit);
  void wait();
  // Runs whose threads are still going (the current one and any abandoned or superseded).
  std::size_t threads() const;

 private:
  struct job {
    std::atomic<bool> cancel{false};
    std::atomic<bool> finished{false};
    std::atomic<std::uint64_t> done{0};
    std::atomic<std::uint64_t> total{0};
    std::chrono::steady_clock::time_point started, cancel_at;
    outcome result;  // written by the worker before `finished`
    std::thread thread;
  };
  void reap();  // joins finished threads of runs no longer current
  std::vector<std::unique_ptr<job>> retired_;
  std::unique_ptr<job> current_;
  std::string key_;
};

}  // namespace musket::gui
