// The one error of the dataset library: a file could not be written, or a dataset
// folder is not one this export may append to. The message names the file or folder.
#pragma once

#include <stdexcept>

namespace pgnbase::dataset {

struct DatasetError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace pgnbase::dataset
