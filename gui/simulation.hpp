#pragma once
// A simulated Supply Lines battle (`--method sim`) run off the UI thread: the calc layer's
// simulate_battle with the progress counter and cancel flag of core/monte_carlo.hpp. The result
// document has the CLI's shape for `--method sim --format json`.
#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "gui/model.hpp"

namespace musket::gui {

// Whether these values ask for a simulated battle (nt/ss battle with method "sim").
bool wants_simulation(const calculator& calc, const json& values);

class battle_simulation {
 public:
  battle_simulation() = default;
  battle_simulation(const battle_simulation&) = delete;
  battle_simulation& operator=(const battle_simulation&) = delete;
  ~battle_simulation();

  // Starts a run for these values, cancelling any run in progress. Throws invalid_input for a
  // battle the calc layer rejects (nothing is started then).
  void start(const calculator& calc, const json& values);
  void cancel();
  void wait();
  bool running() const { return running_.load(); }
  // Fraction of the trials done, 0..1.
  double progress() const;
  std::uint64_t trials_done() const { return progress_.load(); }
  std::uint64_t trials_asked() const { return trials_; }
  // The finished (or cancelled) run's document; empty while running or before any run.
  std::optional<json> result() const;
  // The values the last start() was given, as a compact key.
  const std::string& key() const { return key_; }

 private:
  void stop();
  std::thread worker_;
  std::atomic<bool> cancel_{false};
  std::atomic<bool> running_{false};
  std::atomic<std::uint64_t> progress_{0};
  std::uint64_t trials_ = 0;
  std::string key_;
  mutable std::mutex mutex_;
  std::optional<json> result_;
};

}  // namespace musket::gui
