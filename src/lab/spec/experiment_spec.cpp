// lab/spec: look-ups by name in an ExperimentSpec.
#include "lab/spec/experiment_spec.hpp"

namespace pglab::lab::spec {
namespace {

template <class T>
const T* find_named(const std::vector<T>& items, std::string_view name) {
    for (const auto& item : items) {
        if (item.name == name) {
            return &item;
        }
    }
    return nullptr;
}

} // namespace

const MatrixVariable* Matrix::find(std::string_view name) const {
    return find_named(variables, name);
}

const ServerSpec* ExperimentSpec::find_server(std::string_view n) const {
    return find_named(servers, n);
}

const ScriptSpec* ExperimentSpec::find_script(std::string_view n) const {
    return find_named(scripts, n);
}

} // namespace pglab::lab::spec
