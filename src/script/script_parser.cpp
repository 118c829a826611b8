// ParseScript, process_backslash_command and CheckConditional of pgbench 15, rewritten.
#include "script/script_parser.hpp"

#include "script/expr_lexer.hpp"
#include "script/expr_parser.hpp"
#include "script/sql_scanner.hpp"

#include <strings.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <optional>

namespace pglab::script {

namespace {

constexpr size_t k_max_args = 256; // pgbench's MAX_ARGS: the command word plus 255 arguments

struct Word {
    std::string text;
    size_t offset = 0;
};

bool is_word_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/// exprscan.l's INITIAL state: the next whitespace-separated word of a backslash command, or
/// nothing at the end of the line (the newline is consumed) or of the input.
std::optional<Word> lex_word(std::string_view s, size_t& pos) {
    pos = skip_blanks(s, pos, is_word_space);
    if (pos >= s.size()) {
        return std::nullopt;
    }
    if (s[pos] == '\n') {
        ++pos;
        return std::nullopt;
    }
    Word w;
    w.offset = pos;
    while (pos < s.size() && !is_word_space(s[pos]) && s[pos] != '\n') {
        if (size_t n = continuation_at(s, pos); n > 0) {
            w.text.assign(s.substr(w.offset, pos - w.offset));
            pos += n;
            return w;
        }
        ++pos;
    }
    w.text.assign(s.substr(w.offset, pos - w.offset));
    return w;
}

int line_of(std::string_view s, size_t offset) {
    int line = 1;
    for (size_t i = 0; i < offset && i < s.size(); ++i) {
        if (s[i] == '\n') {
            ++line;
        }
    }
    return line;
}

std::string chomp(std::string_view s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) {
        s.remove_suffix(1);
    }
    return std::string(s);
}

bool equals_ci(std::string_view a, std::string_view b) {
    return a.size() == b.size() && strncasecmp(a.data(), b.data(), a.size()) == 0;
}

struct MetaName {
    std::string_view name;
    MetaKind kind;
};

/// gset and aset are not MetaKinds (they attach to the SQL command before them).
enum class Attach : uint8_t { none, gset, aset };

constexpr MetaName k_meta_names[] = {
    {"set", MetaKind::set},
    {"setshell", MetaKind::setshell},
    {"shell", MetaKind::shell},
    {"sleep", MetaKind::sleep},
    {"if", MetaKind::if_},
    {"elif", MetaKind::elif},
    {"else", MetaKind::else_},
    {"endif", MetaKind::endif},
    {"startpipeline", MetaKind::startpipeline},
    {"endpipeline", MetaKind::endpipeline},
    {"syncpipeline", MetaKind::syncpipeline},
};

/// pgbench's syntax_error(): "source:line: msg (more) at column N in command "cmd"" plus the
/// offending line and a caret when the line is known.
Error syntax_error(std::string_view source, int lineno, const std::string* line,
                   const std::string* command, std::string_view msg, const std::string* more,
                   int column) {
    std::string m = std::string(source) + ":" + std::to_string(lineno) + ": " + std::string(msg);
    if (more != nullptr) {
        m += " (" + *more + ")";
    }
    if (column >= 0 && line == nullptr) {
        m += " at column " + std::to_string(column + 1);
    }
    if (command != nullptr) {
        m += " in command \"" + *command + "\"";
    }
    Error e(std::move(m));
    if (line != nullptr) {
        e.trailer = *line + "\n";
        if (column >= 0) {
            e.trailer += std::string(static_cast<size_t>(column), ' ') + "^ error found here\n";
        }
    }
    e.exit_code = 1;
    return e;
}

std::string sql_first_line(std::string_view sql) {
    std::string_view s = sql.substr(0, 127);
    const size_t cut = s.find_first_of("\n\r");
    return std::string(s.substr(0, cut));
}

/// Skips leading whitespace and "--" comment lines; nullopt when nothing else is left.
std::optional<size_t> skip_sql_comments(std::string_view s) {
    size_t p = 0;
    while (p < s.size()) {
        if (std::isspace(static_cast<unsigned char>(s[p])) != 0) {
            ++p;
        } else if (s.substr(p, 2) == "--") {
            const size_t nl = s.find('\n', p);
            if (nl == std::string_view::npos) {
                return std::nullopt;
            }
            p = nl + 1;
        } else {
            break;
        }
    }
    if (p >= s.size()) {
        return std::nullopt;
    }
    return p;
}

class ScriptParser {
public:
    ScriptParser(std::string_view name, std::string_view source, VariableTable& vars,
                 const Dialect& dialect)
        : m_name(name), m_src(source), m_vars(vars), m_dialect(dialect) {}

    Result<std::vector<Command>> run() {
        SqlScanner scanner(m_src);
        std::string buf;
        while (true) {
            buf.clear();
            size_t first = 0;
            const ScanStop stop = scanner.next(buf, first);
            if (std::optional<size_t> start = skip_sql_comments(buf)) {
                add_sql(std::string_view(buf).substr(*start),
                        line_of(m_src, first) + line_of(buf, *start) - 1);
            }
            if (stop == ScanStop::backslash) {
                size_t pos = scanner.pos();
                PGLAB_TRY(backslash_command(pos - 1, pos));
                scanner.set_pos(pos);
            }
            if (stop == ScanStop::eof) {
                break;
            }
        }
        return std::move(m_commands);
    }

private:
    void add_sql(std::string_view text, int line) {
        Command c;
        c.type = CommandType::sql;
        c.meta = MetaKind::none;
        c.line = line;
        c.sql.assign(text);
        c.first_line = sql_first_line(text);
        const size_t w = text.find_first_of(" \t\n\r\f\v;(");
        c.is_copy = equals_ci(text.substr(0, w), "copy");
        m_commands.push_back(std::move(c));
    }

    /// process_backslash_command() plus the \gset/\aset merge of ParseScript(); `bs` is the
    /// offset of the backslash, `pos` just after it and is moved past the command.
    Status backslash_command(size_t bs, size_t& pos) {
        const int lineno = line_of(m_src, bs);
        std::optional<Word> w0 = lex_word(m_src, pos);
        if (!w0) {
            return {}; // a lone backslash: ignored
        }
        const std::string cmd_name = w0->text;
        std::optional<MetaKind> kind;
        Attach attach = Attach::none;
        for (const MetaName& m : k_meta_names) {
            if (equals_ci(cmd_name, m.name)
                && (m.kind != MetaKind::syncpipeline || m_dialect.syncpipeline)) {
                kind = m.kind;
            }
        }
        if (equals_ci(cmd_name, "setrandom")) {
            kind = MetaKind::set; // the legacy command becomes \set NAME random...(...)
        }
        if (equals_ci(cmd_name, "gset")) {
            attach = Attach::gset;
        } else if (equals_ci(cmd_name, "aset")) {
            attach = Attach::aset;
        }

        Command c;
        c.type = CommandType::meta;
        c.meta = kind.value_or(MetaKind::none);
        c.line = lineno;
        c.meta_name = cmd_name;

        const bool legacy_setrandom = equals_ci(cmd_name, "setrandom");
        if (!legacy_setrandom
            && (kind == MetaKind::set || kind == MetaKind::if_ || kind == MetaKind::elif)) {
            if (kind == MetaKind::set) {
                std::optional<Word> var = lex_word(m_src, pos);
                if (!var) {
                    return syntax_error(m_name, lineno, nullptr, &cmd_name, "missing argument",
                                        nullptr, -1);
                }
                c.var_slot = m_vars.intern(var->text);
            }
            ExprParseError err;
            c.expr = parse_expression(m_src, pos, m_vars, err);
            if (!c.expr) {
                const std::string line = chomp(m_src.substr(bs, err.line_end - bs));
                return syntax_error(m_name, lineno, &line, &cmd_name, err.message,
                                    err.has_more ? &err.more : nullptr,
                                    static_cast<int>(err.offset - bs));
            }
            c.first_line = chomp(m_src.substr(bs, pos - bs));
            m_commands.push_back(std::move(c));
            return {};
        }

        std::vector<Word> words{*w0};
        while (std::optional<Word> w = lex_word(m_src, pos)) {
            if (words.size() >= k_max_args) {
                return syntax_error(m_name, lineno, nullptr, &cmd_name, "too many arguments",
                                    nullptr, -1);
            }
            words.push_back(std::move(*w));
        }
        c.first_line = chomp(m_src.substr(bs, pos - bs));
        const std::string& line = c.first_line;
        const auto col = [&](size_t offset) { return static_cast<int>(offset - bs); };

        if (legacy_setrandom) {
            PGLAB_TRY(setrandom_args(c, words, lineno, col));
        } else if (kind == MetaKind::sleep) {
            PGLAB_TRY(sleep_args(c, words, lineno, col));
        } else if (kind == MetaKind::setshell) {
            if (words.size() < 3) {
                return syntax_error(m_name, lineno, &line, &cmd_name, "missing argument", nullptr,
                                    -1);
            }
            c.var_slot = m_vars.intern(words[1].text);
            shell_args(c, words, 2);
        } else if (kind == MetaKind::shell) {
            if (words.size() < 2) {
                return syntax_error(m_name, lineno, &line, &cmd_name, "missing command", nullptr,
                                    -1);
            }
            shell_args(c, words, 1);
        } else if (kind == MetaKind::else_ || kind == MetaKind::endif
                   || kind == MetaKind::startpipeline || kind == MetaKind::endpipeline
                   || kind == MetaKind::syncpipeline) {
            if (words.size() != 1) {
                return syntax_error(m_name, lineno, &line, &cmd_name, "unexpected argument",
                                    nullptr, -1);
            }
        } else if (attach != Attach::none) {
            if (words.size() > 2) {
                return syntax_error(m_name, lineno, &line, &cmd_name, "too many arguments", nullptr,
                                    -1);
            }
            return attach_result_vars(attach, words, lineno);
        } else {
            return syntax_error(m_name, lineno, &line, &cmd_name, "invalid command", nullptr, -1);
        }
        m_commands.push_back(std::move(c));
        return {};
    }

    /// pglab extension: pgbench 9.5's `\setrandom NAME MIN MAX [uniform | gaussian P |
    /// exponential P]`, which pgbench removed in 9.6 but published scripts still use. It is
    /// compiled to the \set expression 9.6 documents as its replacement, so it draws the same
    /// values as `\set NAME random...(MIN, MAX[, P])`.
    template <class Col>
    Status setrandom_args(Command& c, const std::vector<Word>& words, int lineno, const Col& col) {
        const std::string& line = c.first_line;
        const std::string& cmd_name = c.meta_name;
        if (words.size() < 4) {
            return syntax_error(m_name, lineno, &line, &cmd_name, "missing argument", nullptr, -1);
        }
        Func func = Func::random;
        size_t expected = 4;
        if (words.size() > 4) {
            const std::string& dist = words[4].text;
            if (equals_ci(dist, "uniform")) {
                expected = 5;
            } else if (equals_ci(dist, "gaussian") || equals_ci(dist, "exponential")) {
                func =
                    equals_ci(dist, "gaussian") ? Func::random_gaussian : Func::random_exponential;
                expected = 6;
                if (words.size() < 6) {
                    return syntax_error(m_name, lineno, &line, &cmd_name,
                                        "missing parameter for the distribution", &dist,
                                        col(words[4].offset));
                }
            } else {
                return syntax_error(m_name, lineno, &line, &cmd_name,
                                    "invalid distribution, expecting uniform, gaussian or "
                                    "exponential",
                                    &dist, col(words[4].offset));
            }
        }
        if (words.size() > expected) {
            return syntax_error(m_name, lineno, &line, &cmd_name, "too many arguments", nullptr,
                                col(words[expected].offset));
        }
        c.var_slot = m_vars.intern(words[1].text);
        auto call = std::make_unique<Expr>();
        call->kind = ExprKind::function;
        call->func = func;
        for (size_t i = 2; i < expected; ++i) {
            if (i == 4) {
                continue; // the distribution's name
            }
            const std::string& word = words[i].text;
            auto arg = std::make_unique<Expr>();
            if (word.size() > 1 && word[0] == ':') {
                arg->kind = ExprKind::variable;
                arg->var_slot = m_vars.intern(std::string_view(word).substr(1));
            } else {
                char* end = nullptr;
                errno = 0;
                if (i == 5) {
                    const double d = std::strtod(word.c_str(), &end);
                    arg->constant = Value::real(d);
                } else {
                    const long long v = std::strtoll(word.c_str(), &end, 10);
                    arg->constant = Value::integer(v);
                }
                if (word.empty() || end == nullptr || *end != '\0' || errno != 0) {
                    return syntax_error(m_name, lineno, &line, &cmd_name, "invalid number", &word,
                                        col(words[i].offset));
                }
            }
            call->args.push_back(std::move(arg));
        }
        c.expr = std::move(call);
        return {};
    }

    template <class Col>
    Status sleep_args(Command& c, std::vector<Word>& words, int lineno, const Col& col) {
        const std::string& line = c.first_line;
        const std::string& cmd_name = c.meta_name;
        if (words.size() < 2) {
            return syntax_error(m_name, lineno, &line, &cmd_name, "missing argument", nullptr, -1);
        }
        if (words.size() > 3) {
            return syntax_error(m_name, lineno, &line, &cmd_name, "too many arguments", nullptr,
                                col(words[3].offset));
        }
        std::string unit;
        size_t unit_offset = 0;
        if (words.size() == 3) {
            unit = words[2].text;
            unit_offset = words[2].offset;
        }
        // A copy: splitting "10ms" appends the unit to `words`, which may reallocate it.
        const std::string amount = words[1].text;
        if (amount[0] != ':') {
            // Split "10ms" into the number and the unit; the number must start with a digit.
            size_t i = 0;
            if (amount[i] == '+' || amount[i] == '-') {
                ++i;
            }
            const bool have_digit =
                i < amount.size() && std::isdigit(static_cast<unsigned char>(amount[i])) != 0;
            while (i < amount.size() && std::isdigit(static_cast<unsigned char>(amount[i])) != 0) {
                ++i;
            }
            if (i < amount.size()) {
                if (words.size() == 2 && have_digit) {
                    unit = amount.substr(i);
                    unit_offset = words[1].offset + i;
                    words.push_back(Word{unit, unit_offset});
                } else {
                    return syntax_error(m_name, lineno, &line, &cmd_name,
                                        "invalid sleep time, must be an integer", &amount,
                                        col(words[1].offset));
                }
            }
        }
        if (words.size() == 3) {
            if (equals_ci(unit, "us")) {
                c.sleep_unit_us = 1;
            } else if (equals_ci(unit, "ms")) {
                c.sleep_unit_us = 1000;
            } else if (equals_ci(unit, "s")) {
                c.sleep_unit_us = 1000000;
            } else {
                return syntax_error(m_name, lineno, &line, &cmd_name,
                                    "unrecognized time unit, must be us, ms or s", &unit,
                                    col(unit_offset));
            }
        }
        MetaArg arg;
        if (amount[0] == ':') {
            arg.text = amount.substr(1);
            arg.var_slot = m_vars.intern(arg.text);
        } else {
            arg.text = amount;
        }
        c.args.push_back(std::move(arg));
        return {};
    }

    void shell_args(Command& c, const std::vector<Word>& words, size_t from) {
        for (size_t i = from; i < words.size(); ++i) {
            const std::string& w = words[i].text;
            MetaArg arg;
            if (w[0] != ':') {
                arg.text = w;
            } else if (w.size() > 1 && w[1] == ':') {
                arg.text = w.substr(1);
            } else {
                arg.text = w.substr(1);
                arg.var_slot = m_vars.intern(arg.text);
            }
            c.args.push_back(std::move(arg));
        }
    }

    Status attach_result_vars(Attach attach, const std::vector<Word>& words, int lineno) {
        const std::string_view msg = "\\gset must follow an SQL command";
        if (m_commands.empty()) {
            return syntax_error(m_name, lineno, nullptr, nullptr, msg, nullptr, -1);
        }
        Command& prev = m_commands.back();
        if (prev.type != CommandType::sql) {
            return syntax_error(m_name, lineno, nullptr, nullptr, msg, &prev.first_line, -1);
        }
        if (prev.result_vars != ResultVars::none) {
            // pgbench has not computed the SQL command's first line yet at this point.
            return syntax_error(m_name, lineno, nullptr, nullptr, msg, nullptr, -1);
        }
        prev.result_vars = attach == Attach::gset ? ResultVars::gset : ResultVars::aset;
        prev.var_prefix = words.size() > 1 ? words[1].text : std::string();
        return {};
    }

    std::string_view m_name;
    std::string_view m_src;
    VariableTable& m_vars;
    Dialect m_dialect;
    std::vector<Command> m_commands;
};

/// CheckConditional(): static \if structure, and the jump targets of each branch command.
Status check_conditionals(std::string_view desc, std::vector<Command>& cmds) {
    struct Frame {
        int last_branch; ///< the \if or \elif whose false condition jumps to the next branch
        bool in_else;
        std::vector<int> branches; ///< \if, \elif and \else commands, to point at the \endif
    };

    std::vector<Frame> stack;
    const auto fail = [&](size_t i, std::string_view msg) {
        Error e("condition error in script \"" + std::string(desc) + "\" command "
                + std::to_string(i + 1) + ": " + std::string(msg));
        e.exit_code = 1;
        return e;
    };
    for (size_t i = 0; i < cmds.size(); ++i) {
        Command& c = cmds[i];
        if (c.type != CommandType::meta) {
            continue;
        }
        const int idx = static_cast<int>(i);
        switch (c.meta) {
        case MetaKind::if_:
            stack.push_back(Frame{idx, false, {idx}});
            break;
        case MetaKind::elif:
        case MetaKind::else_: {
            const bool is_elif = c.meta == MetaKind::elif;
            if (stack.empty()) {
                return fail(i, is_elif ? "\\elif without matching \\if"
                                       : "\\else without matching \\if");
            }
            Frame& f = stack.back();
            if (f.in_else) {
                return fail(i, is_elif ? "\\elif after \\else" : "\\else after \\else");
            }
            cmds[static_cast<size_t>(f.last_branch)].jump = idx;
            f.branches.push_back(idx);
            if (is_elif) {
                f.last_branch = idx;
            } else {
                f.in_else = true;
                f.last_branch = -1;
            }
            break;
        }
        case MetaKind::endif: {
            if (stack.empty()) {
                return fail(i, "\\endif without matching \\if");
            }
            Frame& f = stack.back();
            if (f.last_branch >= 0) {
                cmds[static_cast<size_t>(f.last_branch)].jump = idx;
            }
            for (int b : f.branches) {
                Command& bc = cmds[static_cast<size_t>(b)];
                bc.endif = idx;
                if (bc.meta == MetaKind::else_) {
                    bc.jump = idx;
                }
            }
            stack.pop_back();
            break;
        }
        default:
            break;
        }
    }
    if (!stack.empty()) {
        return fail(cmds.size(), "\\if without matching \\endif");
    }
    return {};
}

} // namespace

Result<std::vector<Command>> parse_script(std::string_view name, std::string_view desc,
                                          std::string_view source, VariableTable& vars,
                                          const Dialect& dialect) {
    ScriptParser parser(name, source, vars, dialect);
    PGLAB_TRY_ASSIGN(std::vector<Command> cmds, parser.run());
    if (cmds.empty()) {
        Error e("empty command list for script \"" + std::string(desc) + "\"");
        e.exit_code = 1;
        return e;
    }
    PGLAB_TRY(check_conditionals(desc, cmds));
    return cmds;
}

} // namespace pglab::script
