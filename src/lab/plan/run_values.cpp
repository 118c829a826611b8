// lab/plan: per-run variable values, step expansion and the option values the matrix offers.
#include "lab/plan/run_values.hpp"

#include "lab/experiment/template_text.hpp"

#include <algorithm>
#include <cctype>

namespace pglab::lab::plan {

std::optional<experiment::Scalar> RunValues::lookup(std::string_view name) const {
    if (const auto* v = m_cell.find(name)) {
        return *v;
    }
    if (name == "server") {
        return experiment::Scalar{m_cell.server, {}};
    }
    if (name == "repetition") {
        return experiment::Scalar{std::int64_t{m_run.repetition}, {}};
    }
    if (name == "warmup") {
        return experiment::Scalar{m_run.warmup, {}};
    }
    if (name == "run") {
        return experiment::Scalar{static_cast<std::int64_t>(m_run.ordinal), {}};
    }
    return std::nullopt;
}

Result<std::string> RunValues::expand(const experiment::TextField& field) const {
    auto out = experiment::expand_template(field.text, [&](std::string_view name) {
        auto v = lookup(name);
        return v ? std::optional<std::string>(v->text()) : std::nullopt;
    });
    if (!out) {
        return make_error(field.pos.to_string() + ": " + out.error().message);
    }
    return out;
}

Result<bool> RunValues::applies(const experiment::Step& step) const {
    if (!step.when) {
        return true;
    }
    auto verdict = step.when->evaluate([&](std::string_view name) { return lookup(name); });
    if (!verdict) {
        return make_error(Error(step.when_pos.to_string() + ": \"when\" fails for cell "
                                + m_cell.label + ": " + verdict.error().message)
                              .with_hint("compare numbers with numbers, strings with strings"));
    }
    return verdict;
}

namespace {

/// The bench options the matrix variables of the same name offer, with their long names.
struct MatrixOption {
    std::string_view variable;
    char letter;
    std::string_view long_name;
};

constexpr MatrixOption k_matrix_options[] = {
    {"scale", 's', "scale"},
    {"clients", 'c', "client"},
    {"threads", 'j', "jobs"},
    {"duration", 'T', "time"},
    {"transactions", 't', "transactions"},
    {"rate", 'R', "rate"},
};

} // namespace

Result<std::vector<std::string>> RunValues::own_options(const experiment::Step& step) const {
    std::vector<std::string> own;
    for (const auto& f : step.options) {
        PGLAB_TRY_ASSIGN(std::string a, expand(f));
        own.push_back(std::move(a));
    }
    return own;
}

std::vector<options::OptionDefault> RunValues::matrix_options(const experiment::Step& step) const {
    const bool init = step.type == experiment::StepType::init;
    if (!init && step.type != experiment::StepType::bench) {
        return {};
    }
    std::vector<options::OptionDefault> out;
    for (const MatrixOption& o : k_matrix_options) {
        if ((o.letter == 's') != init) {
            continue;
        }
        if (const auto* v = m_cell.find(o.variable)) {
            out.push_back({o.letter, v->text()});
        }
    }
    if (!init) {
        for (const auto& b : m_cell.bindings) {
            if (b.name.rfind("vars.", 0) == 0) {
                out.push_back({'D', b.name.substr(5) + "=" + b.value.text()});
            }
        }
    }
    return out;
}

std::string_view matrix_option_long_name(char letter) {
    if (letter == 'D') {
        return "define";
    }
    for (const MatrixOption& o : k_matrix_options) {
        if (o.letter == letter) {
            return o.long_name;
        }
    }
    return {};
}

std::string option_argument(const options::OptionDefault& option) {
    return "--" + std::string(matrix_option_long_name(option.letter)) + "=" + option.value;
}

std::string matrix_variable(const options::OptionDefault& option) {
    if (option.letter == 'D') {
        return "vars." + option.value.substr(0, option.value.find('='));
    }
    for (const MatrixOption& o : k_matrix_options) {
        if (o.letter == option.letter) {
            return std::string(o.variable);
        }
    }
    return {};
}

std::string RunValues::server_of(const experiment::ExperimentSpec& spec,
                                 const experiment::Step& step) const {
    if (!step.server.empty()) {
        return step.server;
    }
    for (const auto& s : spec.sessions) {
        if (s.name == step.session && !s.server.empty()) {
            return s.server;
        }
    }
    return m_cell.server;
}

Result<std::string> RunValues::fingerprint(const experiment::ExperimentSpec& spec,
                                           const experiment::Step& step,
                                           const std::vector<std::string>& arguments) const {
    // fields joined with a unit separator, which experiment files do not use in fields
    std::string out = server_of(spec, step) + '\x1f' + experiment::step_type_name(step.type);
    for (const auto& f : step.statements) {
        PGLAB_TRY_ASSIGN(std::string s, expand(f));
        out += '\x1f' + s;
    }
    for (const auto& a : arguments) {
        out += '\x1f' + a;
    }
    for (const auto& ref : step.scripts) {
        out += '\x1f' + ref.name + "@" + std::to_string(ref.weight);
    }
    PGLAB_TRY_ASSIGN(std::string command, expand(step.command));
    out += '\x1f' + command + '\x1f' + step.mode + '\x1f' + std::to_string(step.duration_ms);
    return out;
}

std::vector<experiment::Setting> effective_settings(const experiment::ExperimentSpec& spec,
                                                    const Cell& cell, std::string_view server) {
    const auto same = [](std::string_view a, std::string_view b) {
        return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
            return std::tolower(static_cast<unsigned char>(x))
                   == std::tolower(static_cast<unsigned char>(y));
        });
    };
    std::vector<experiment::Setting> out;
    if (const auto* s = spec.find_server(server)) {
        out = s->settings;
    }
    if (server != cell.server) {
        return out;
    }
    for (const auto& var : spec.matrix.variables) {
        if (var.kind != experiment::VariableKind::setting) {
            continue;
        }
        const auto* v = cell.find(var.name);
        auto it = std::find_if(out.begin(), out.end(),
                               [&](const experiment::Setting& x) { return same(x.name, var.key); });
        if (it != out.end()) {
            it->value = *v;
        } else {
            out.push_back(experiment::Setting{var.key, *v, var.pos});
        }
    }
    return out;
}

} // namespace pglab::lab::plan
