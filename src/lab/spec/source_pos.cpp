// lab/spec: formatting of source positions.
#include "lab/spec/source_pos.hpp"

namespace pglab::lab::spec {

std::string SourcePos::to_string() const {
    if (!known()) {
        return file;
    }
    return file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

} // namespace pglab::lab::spec
