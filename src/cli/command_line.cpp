// A lab subcommand's command line on CLI11: the only file that includes it.
#include "cli/command_line.hpp"

#include "util/log.hpp"

// GCC 12 warns of null dereferences inside CLI11's string helpers once they are inlined here
// (a false positive of -Wnull-dereference in a header we do not own).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnull-dereference"
#include <CLI/CLI.hpp>
#pragma GCC diagnostic pop
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <string_view>

namespace pglab::cli {

namespace {

/// The help's width: options and their text are wrapped to it.
constexpr std::size_t k_help_width = 96;
/// Where an option's text starts at most; longer names put the text on the next line.
constexpr std::size_t k_help_column = 26;

/// One declared option, at a stable address (CLI11 writes into `value` and `values`).
struct Declared {
    std::vector<std::string> names; ///< "-o", "--output"
    bool takes_value = false;
    ValueText text;
    CLI::Option* option = nullptr;
    std::string value;
    std::vector<std::string> values;
    std::optional<std::string>* single = nullptr;
    std::vector<std::string>* many = nullptr;
};

std::vector<std::string> split_names(const std::string& names) {
    std::vector<std::string> out;
    std::size_t start = 0;
    for (std::size_t comma; (comma = names.find(',', start)) != std::string::npos;
         start = comma + 1) {
        out.push_back(names.substr(start, comma - start));
    }
    out.push_back(names.substr(start));
    return out;
}

/// `text` wrapped to `width` columns, each line after the first indented by `indent` blanks.
std::string wrap(const std::string& text, std::size_t indent, std::size_t width) {
    std::string out;
    std::size_t line = indent;
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t end = std::min(text.find(' ', at), text.size());
        const std::string_view word(text.data() + at, end - at);
        if (line > indent && line + 1 + word.size() > width) {
            out += "\n" + std::string(indent, ' ');
            line = indent;
        } else if (line > indent) {
            out += ' ';
            ++line;
        }
        out += word;
        line += word.size();
        at = end + 1;
    }
    return out;
}

} // namespace

struct CommandLine::State {
    std::string command;
    std::string synopsis;
    std::string epilogue;
    CLI::App app;
    std::vector<std::unique_ptr<Declared>> declared;
    std::vector<std::string>* operands = nullptr;
    std::vector<std::string> operand_values;

    Declared* find(std::string_view name) {
        for (auto& d : declared) {
            if (std::find(d->names.begin(), d->names.end(), name) != d->names.end()) {
                return d.get();
            }
        }
        return nullptr;
    }

    Declared& add(const std::string& names, bool takes_value, ValueText text) {
        auto d = std::make_unique<Declared>();
        d->names = split_names(names);
        d->takes_value = takes_value;
        d->text = std::move(text);
        declared.push_back(std::move(d));
        return *declared.back();
    }
};

CommandLine::CommandLine(std::string command, std::string synopsis, std::string epilogue)
    : m(std::make_unique<State>()) {
    m->command = std::move(command);
    m->synopsis = std::move(synopsis);
    m->epilogue = std::move(epilogue);
    m->app.name("pglab " + m->command);
    m->app.set_help_flag("--help", "show this help, then exit");
    // Unknown options are collected, not thrown: the message names the first one, as before.
    m->app.allow_extras();
}

CommandLine::~CommandLine() = default;

void CommandLine::flag(const std::string& names, bool& target, const std::string& help) {
    Declared& d = m->add(names, false, ValueText{{}, {}, help, {}});
    d.option = m->app.add_flag(names, target, help);
}

void CommandLine::option(const std::string& names, std::optional<std::string>& target,
                         ValueText text) {
    Declared& d = m->add(names, true, std::move(text));
    d.single = &target;
    d.option = m->app.add_option(names, d.value, d.text.help)
                   ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
}

void CommandLine::repeated(const std::string& names, std::vector<std::string>& target,
                           ValueText text) {
    Declared& d = m->add(names, true, std::move(text));
    d.many = &target;
    // One value per occurrence: `--metric tps DIR` leaves DIR an operand.
    d.option = m->app.add_option(names, d.values, d.text.help)
                   ->allow_extra_args(false)
                   ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

void CommandLine::operands(std::vector<std::string>& target) {
    m->operands = &target;
    m->app.add_option("operands", m->operand_values);
}

std::optional<int> CommandLine::parse(int argc, char** argv) {
    std::vector<std::string> args;
    for (int i = argc - 1; i >= 1; --i) { // CLI11 takes them in reverse order
        const std::string_view arg = argv[i];
        args.emplace_back(arg == "-?" ? std::string_view("--help") : arg);
        // "--output=" has no value: CLI11 would take the next argument as the value.
        const std::size_t eq = arg.find('=');
        if (arg.substr(0, 2) == "--" && eq + 1 == arg.size()) {
            if (const Declared* d = m->find(arg.substr(0, eq)); d != nullptr && d->takes_value) {
                return usage_error(
                    fmt::format("option {} needs {}", arg.substr(0, eq), d->text.needs));
            }
        }
    }
    try {
        m->app.parse(args);
    } catch (const CLI::CallForHelp&) {
        const std::string text = help();
        std::fwrite(text.data(), 1, text.size(), stdout);
        return 0;
    } catch (const CLI::ArgumentMismatch& e) {
        // "--seed: 1 required N missing": the option is named before the colon.
        const std::string what = e.what();
        const Declared* d = m->find(std::string_view(what).substr(0, what.find(':')));
        return usage_error(d != nullptr ? fmt::format("option {} needs {}",
                                                      what.substr(0, what.find(':')), d->text.needs)
                                        : what);
    } catch (const CLI::ParseError& e) {
        return usage_error(e.what());
    }
    for (const std::string& extra : m->app.remaining()) {
        if (extra != "--" && extra.size() > 1 && extra[0] == '-') {
            return usage_error(fmt::format("unknown option \"{}\"", extra));
        }
    }
    for (auto& d : m->declared) {
        if (d->single != nullptr && d->option->count() > 0) {
            *d->single = d->value;
        } else if (d->many != nullptr) {
            *d->many = d->values;
        }
    }
    if (m->operands != nullptr) {
        *m->operands = m->operand_values;
    }
    return std::nullopt;
}

int CommandLine::usage_error(const std::string& message) const {
    log::error("{}", message);
    log::hint(fmt::format("Try \"pglab {} --help\" for more information.", m->command));
    return 1;
}

std::string CommandLine::help() const {
    std::vector<std::pair<std::string, std::string>> rows; // names and value, text
    for (const auto& d : m->declared) {
        std::string left;
        for (const std::string& n : d->names) {
            left += (left.empty() ? "" : ", ") + n;
        }
        if (d->takes_value) {
            left += " " + d->text.name;
        }
        std::string text = d->text.help;
        if (!d->text.default_is.empty()) {
            text += " (default: " + d->text.default_is + ")";
        }
        rows.emplace_back(std::move(left), std::move(text));
    }
    rows.emplace_back("-?, --help", "show this help, then exit");
    std::size_t column = 0;
    for (const auto& [left, text] : rows) {
        if (left.size() + 4 <= k_help_column) {
            column = std::max(column, left.size() + 4);
        }
    }
    std::string out = m->synopsis + "\nOptions:\n";
    for (const auto& [left, text] : rows) {
        out += "  " + left;
        if (left.size() + 4 > column) {
            out += "\n" + std::string(column, ' ');
        } else {
            out += std::string(column - 2 - left.size(), ' ');
        }
        out += wrap(text, column, k_help_width) + "\n";
    }
    if (!m->epilogue.empty()) {
        out += "\n" + m->epilogue;
    }
    return out;
}

} // namespace pglab::cli
