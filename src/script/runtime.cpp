// Run-time helpers for the engine: SQL text and parameters from variables, \sleep durations and
// \shell command lines. Pure functions of a Command and a client's Variables.
#include "script/loader.hpp"

#include <cctype>
#include <cstdlib>

namespace pglab::script {

namespace {

constexpr size_t k_shell_command_size = 256;

/// atoi() as C does it (strtol truncated to int).
int c_atoi(const std::string& s) {
    return static_cast<int>(std::strtol(s.c_str(), nullptr, 10));
}

} // namespace

void substitute_sql(const Command& cmd, const Variables& vars, std::string& out) {
    out.clear();
    for (const SqlPiece& p : cmd.pieces) {
        out.append(p.text);
        if (p.var_slot >= 0 && !vars.text(p.var_slot, out)) {
            out.push_back(':');
            out.append(p.var_name);
        }
    }
}

void fill_params(const Command& cmd, const Variables& vars, std::vector<std::string>& values,
                 std::vector<bool>& is_null) {
    const size_t n = cmd.param_slots.size();
    values.resize(n);
    is_null.resize(n);
    for (size_t i = 0; i < n; ++i) {
        values[i].clear();
        is_null[i] = !vars.text(cmd.param_slots[i], values[i]);
    }
}

Result<int64_t> sleep_duration_us(const Command& cmd, Variables& vars) {
    const MetaArg& arg = cmd.args.at(0);
    int64_t amount = 0;
    if (arg.var_slot >= 0) {
        std::string text;
        if (!vars.text(arg.var_slot, text)) {
            return make_error(cmd.meta_name + ": undefined variable \"" + arg.text + "\"");
        }
        amount = c_atoi(text);
        if (amount == 0 && std::isdigit(static_cast<unsigned char>(text.c_str()[0])) == 0) {
            return make_error(cmd.meta_name + ": invalid sleep time \"" + text
                              + "\" for variable \"" + arg.text + "\"");
        }
    } else {
        amount = c_atoi(arg.text);
    }
    return amount * cmd.sleep_unit_us;
}

Result<std::string> shell_command_line(const Command& cmd, const Variables& vars) {
    // Messages name the first word of the shell command, as pgbench's runShellCommand does.
    std::string first = cmd.args.empty()            ? std::string()
                        : cmd.args[0].var_slot >= 0 ? ":" + cmd.args[0].text
                                                    : cmd.args[0].text;
    std::string line;
    std::string value;
    for (size_t i = 0; i < cmd.args.size(); ++i) {
        const MetaArg& a = cmd.args[i];
        const std::string* arg = &a.text;
        if (a.var_slot >= 0) {
            value.clear();
            if (!vars.text(a.var_slot, value)) {
                return make_error(first + ": undefined variable \":" + a.text + "\"");
            }
            arg = &value;
        }
        if (line.size() + arg->size() + (i > 0 ? 1 : 0) >= k_shell_command_size - 1) {
            return make_error(first + ": shell command is too long");
        }
        if (i > 0) {
            line.push_back(' ');
        }
        line.append(*arg);
    }
    return line;
}

} // namespace pglab::script
