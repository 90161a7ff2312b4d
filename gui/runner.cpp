#include "gui/runner.hpp"

#include <algorithm>

namespace musket::gui {

namespace {

double ms_since(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - since).count();
}

}  // namespace

background_runner::~background_runner() {
  if (current_) {
    current_->cancel = true;
    retired_.push_back(std::move(current_));
  }
  for (auto& j : retired_) j->cancel = true;
  for (auto& j : retired_)
    if (j->thread.joinable()) j->thread.join();
}

void background_runner::reap() {
  for (auto it = retired_.begin(); it != retired_.end();) {
    if ((*it)->finished.load(std::memory_order_acquire)) {
      if ((*it)->thread.joinable()) (*it)->thread.join();
      it = retired_.erase(it);
    } else {
      ++it;
    }
  }
}

void background_runner::start(const calculator& calc, const json& values, const std::string& key) {
  if (current_) {
    current_->cancel = true;
    retired_.push_back(std::move(current_));
  }
  reap();
  auto j = std::make_unique<job>();
  j->started = std::chrono::steady_clock::now();
  job* raw = j.get();
  j->thread = std::thread([raw, &calc, values] {
    const cli::run_context context{&raw->cancel, &raw->done, &raw->total};
    const cli::scoped_run_context scope(&context);
    raw->result = run(calc, values);  // never throws
    raw->finished.store(true, std::memory_order_release);
  });
  current_ = std::move(j);
  key_ = key;
}

void background_runner::cancel(std::chrono::milliseconds grace) {
  if (!current_ || current_->cancel) return;
  current_->cancel = true;
  // A command that reports progress reads the context: it stops at its next chunk of trials or
  // its next point, which may take a second or so; give it that before abandoning it.
  const auto heeding = current_->total.load() > 0 ? std::max(grace, std::chrono::milliseconds(3000)) : grace;
  current_->cancel_at = std::chrono::steady_clock::now() + heeding;
}

bool background_runner::running() const {
  return current_ && !current_->finished.load(std::memory_order_acquire);
}

bool background_runner::cancel_requested() const {
  return current_ && current_->cancel.load();
}

std::uint64_t background_runner::done() const {
  return current_ ? current_->done.load(std::memory_order_relaxed) : 0;
}

std::uint64_t background_runner::total() const {
  return current_ ? current_->total.load(std::memory_order_relaxed) : 0;
}

double background_runner::seconds() const {
  return current_ ? ms_since(current_->started) / 1000.0 : 0.0;
}

std::optional<background_runner::finished> background_runner::take_finished() {
  reap();
  if (!current_) return std::nullopt;
  if (current_->finished.load(std::memory_order_acquire)) {
    if (current_->thread.joinable()) current_->thread.join();
    finished f{key_, std::move(current_->result), ms_since(current_->started), false};
    current_.reset();
    return f;
  }
  if (current_->cancel && std::chrono::steady_clock::now() >= current_->cancel_at) {
    // The command did not heed the cancel: leave its thread to finish unseen.
    finished f{key_, outcome{}, ms_since(current_->started), true};
    f.result.error = "cancelled";
    f.result.cancelled = true;
    retired_.push_back(std::move(current_));
    return f;
  }
  return std::nullopt;
}

bool background_runner::wait_for(std::chrono::milliseconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (current_ && !current_->finished.load(std::memory_order_acquire)) {
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return true;
}

void background_runner::wait() {
  if (current_ && current_->thread.joinable()) current_->thread.join();
}

std::size_t background_runner::threads() const {
  std::size_t n = current_ ? 1 : 0;
  for (const auto& j : retired_) n += !j->finished.load();
  return n;
}

}  // namespace musket::gui
