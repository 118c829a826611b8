// lab/experiment: formatting of source positions.
#include "lab/experiment/source_pos.hpp"

namespace pglab::lab::experiment {

std::string SourcePos::to_string() const {
    if (!known()) {
        return file;
    }
    return file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

} // namespace pglab::lab::experiment
