#pragma once
// Zeroed blocks of doubles, handed out and taken back by size and reused, carved from large chunks.
// An engine that keeps a short-lived vector per node of a big graph (hundreds of thousands of
// them, a few sizes) spends much of its time in the general allocator, and each fresh vector is
// fresh memory; blocks of one size taken back are handed out again, and blocks carved one after
// another lie side by side.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace musket {

class block_pool {
 public:
  // A block of `size` doubles, all 0.
  double* take(std::uint32_t size) {
    std::vector<double*>& free = free_list(size);
    if (!free.empty()) {
      double* block = free.back();
      free.pop_back();
      std::fill(block, block + size, 0.0);
      return block;
    }
    if (size > chunk_doubles - used_) {
      if (size > chunk_doubles / 4) return new_chunk(size);  // a block of its own
      new_chunk(chunk_doubles);
      used_ = 0;
    }
    double* block = chunks_.back().get() + used_;
    used_ += size;
    std::fill(block, block + size, 0.0);  // (a chunk's memory comes unset)
    return block;
  }
  // A block taken with `size`, given back for reuse.
  void give_back(double* block, std::uint32_t size) {
    std::vector<double*>& free = free_list(size);
    const std::size_t before = free.capacity();
    free.push_back(block);
    bytes_ += (free.capacity() - before) * sizeof(double*);
  }
  // The bytes held: the chunks and the free lists.
  std::size_t bytes() const { return bytes_; }

 private:
  static constexpr std::size_t chunk_doubles = std::size_t{1} << 17;  // 1 MB
  static constexpr std::uint32_t small_sizes = 4096;                  // free lists by index below this
  std::vector<double*>& free_list(std::uint32_t size) {
    if (size >= small_sizes) return large_free_[size];
    if (small_free_.size() <= size) small_free_.resize(size + 1);
    return small_free_[size];
  }
  double* new_chunk(std::size_t doubles) {
    // A dedicated block goes in front, so the last chunk stays the one being carved.
    auto chunk = std::make_unique_for_overwrite<double[]>(doubles);
    double* start = chunk.get();
    if (doubles == chunk_doubles || chunks_.empty())
      chunks_.push_back(std::move(chunk));
    else
      chunks_.insert(chunks_.end() - 1, std::move(chunk));
    bytes_ += doubles * sizeof(double);
    if (doubles != chunk_doubles) std::fill(start, start + doubles, 0.0);
    return start;
  }
  std::vector<std::unique_ptr<double[]>> chunks_;
  std::size_t used_ = chunk_doubles;  // doubles carved from the last chunk
  std::vector<std::vector<double*>> small_free_;
  std::unordered_map<std::uint32_t, std::vector<double*>> large_free_;
  std::size_t bytes_ = 0;
};

}  // namespace musket
