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
    if (size > chunk_size_ - used_) {
      if (size > max_chunk / 4) return new_chunk(size, true);  // a block of its own
      // Chunks double from 4 kB to 1 MB: a small solve holds little, a large one few chunks.
      chunk_size_ = chunk_size_ == 0 ? min_chunk : std::min(max_chunk, 2 * chunk_size_);
      while (chunk_size_ < size) chunk_size_ *= 2;
      new_chunk(chunk_size_);
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
  static constexpr std::size_t min_chunk = 512, max_chunk = std::size_t{1} << 17;  // doubles: 4 kB, 1 MB
  static constexpr std::uint32_t small_sizes = 4096;                               // free lists by index below this
  std::vector<double*>& free_list(std::uint32_t size) {
    if (size >= small_sizes) return large_free_[size];
    if (small_free_.size() <= size) small_free_.resize(size + 1);
    return small_free_[size];
  }
  // A new chunk of `doubles`; a block of its own (`own`) goes in front, so the last chunk stays the
  // one being carved.
  double* new_chunk(std::size_t doubles, bool own = false) {
    // (new[] leaves the doubles unset as make_unique_for_overwrite would; libc++ 14, the web build's, lacks that)
    std::unique_ptr<double[]> chunk(new double[doubles]);
    double* start = chunk.get();
    if (!own || chunks_.empty())
      chunks_.push_back(std::move(chunk));
    else
      chunks_.insert(chunks_.end() - 1, std::move(chunk));
    bytes_ += doubles * sizeof(double);
    if (own) std::fill(start, start + doubles, 0.0);
    return start;
  }
  std::vector<std::unique_ptr<double[]>> chunks_;
  std::size_t chunk_size_ = 0, used_ = 0;  // the last chunk's doubles, and those carved from it
  std::vector<std::vector<double*>> small_free_;
  std::unordered_map<std::uint32_t, std::vector<double*>> large_free_;
  std::size_t bytes_ = 0;
};

}  // namespace musket
