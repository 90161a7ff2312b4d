#pragma once
// Writing an output file (a CSV, a chart, a saved scenario, a screenshot) the one safe way: the
// target must be a regular file or not exist yet (a directory, device, FIFO or symbolic link is
// refused); the contents go to a temporary file in the target's directory, which is flushed,
// checked on close and renamed over the target, so a reader never sees half a file and a full
// disk is an error rather than an empty file.
#include <string>
#include <vector>

namespace musket {

// Throws invalid_input naming `field` when `path` is not a target a file can be written to
// (empty, a directory, a device, a symbolic link); nothing is written. Front ends call it for
// every output option before any work, so a bad second target never follows a written first.
void check_output_target(const std::string& path, const std::string& field);

// Throws invalid_input naming `field` when `path` is the same file as one of `inputs` (the same
// device and inode: another spelling, a hard link or a symbolic link to it all count), so an
// output never overwrites the plan or scenario it was computed from. A missing path is no input.
void check_output_not_input(const std::string& path, const std::string& field, const std::vector<std::string>& inputs);

// Checks the target as above, then writes `contents` atomically. A failure to create, write,
// flush or rename is an environment_problem naming `field` (the target is left as it was).
void write_output_file(const std::string& path, const std::string& contents, const std::string& field);

}  // namespace musket
