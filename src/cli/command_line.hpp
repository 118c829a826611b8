// The command line of a lab subcommand (`pglab run`, `report`, `compare`, `server`): options
// declared once, parsed by CLI11 (included by command_line.cpp only), and the --help text drawn
// from the same declarations, so that it lists every option with its default. One rule for every
// subcommand: `--opt VALUE` or `--opt=VALUE`, options before or after the operands, `--` ends
// the options; a mistake is an error with the subcommand's hint and exit status 1.
// (`pglab bench` keeps pgbench's getopt_long and its messages: src/options.)
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pglab::cli {

/// How an option that takes a value shows in the help and in messages.
struct ValueText {
    std::string name;       ///< in the help: "DIR", "N", "FORMAT"
    std::string needs;      ///< in "option --results needs a directory"
    std::string help;       ///< what it does, one paragraph (the help wraps it)
    std::string default_is; ///< shown as "(default: ...)"; "" when there is none to show
};

class CommandLine {
public:
    /// `command` names the subcommand in messages ("run": "Try \"pglab run --help\""); the help
    /// is `synopsis` (what it does, its usage), the options, then `epilogue` (notes, examples).
    CommandLine(std::string command, std::string synopsis, std::string epilogue);
    ~CommandLine();
    CommandLine(const CommandLine&) = delete;
    CommandLine& operator=(const CommandLine&) = delete;

    /// `names`: "--dry-run", or "-o,--output" with a short name.
    void flag(const std::string& names, bool& target, const std::string& help);

    /// An option with a value; `target` is set when the option is given (the last one wins).
    void option(const std::string& names, std::optional<std::string>& target, ValueText text);

    /// An option that may be given several times, each value appended.
    void repeated(const std::string& names, std::vector<std::string>& target, ValueText text);

    /// The operands (every argument that is not an option), in order; checked by the caller.
    void operands(std::vector<std::string>& target);

    /// Parses argv[1..argc-1]. Nothing when the caller goes on; else the exit status to return
    /// now: 0 after --help or -? printed the help on stdout, 1 after a mistake was reported.
    std::optional<int> parse(int argc, char** argv);

    /// Reports `message` as an error with the subcommand's hint; returns 1 (the exit status).
    int usage_error(const std::string& message) const;

    /// The help text.
    std::string help() const;

private:
    struct State;
    std::unique_ptr<State> m;
};

} // namespace pglab::cli
