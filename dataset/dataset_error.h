// The one error of the dataset library: a file could not be written, or a dataset
// folder is not one this export may append to. The message names the file or folder.
#pragma once

#include <string>

#include "core/error.h"

namespace pgnbase::dataset {

class DatasetError : public Error {
 public:
  explicit DatasetError(const std::string& message) : Error(ErrorKind::Dataset, message) {}
};

}  // namespace pgnbase::dataset
