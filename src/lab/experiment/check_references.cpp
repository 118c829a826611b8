// lab/experiment: cross-reference checks over a parsed experiment: every name a part uses (servers,
// sessions, scripts, `${name}`, filter and `when` names) exists, standby chains end in a
// primary, step names are unique, and the runs' default server is known.
#include "lab/experiment/parse_parts.hpp"
#include "lab/experiment/suggest.hpp"
#include "lab/experiment/template_text.hpp"

#include <set>

namespace pglab::lab::experiment {
namespace {

std::vector<std::string> server_names(const ExperimentSpec& spec) {
    std::vector<std::string> names;
    for (const auto& s : spec.servers) {
        names.push_back(s.name);
    }
    return names;
}

void check_server_ref(const std::string& name, const SourcePos& pos, std::string_view what,
                      ParseContext& ctx, const ExperimentSpec& spec) {
    if (name.empty() || spec.find_server(name) != nullptr) {
        return;
    }
    const auto names = server_names(spec);
    ctx.diag.add(
        pos,
        std::string(what) + " names undefined server \"" + name + "\"" + did_you_mean(name, names),
        "defined servers: " + quoted_list(names) + "; add [servers." + name + "] or fix the name");
}

void check_standbys(ParseContext& ctx, const ExperimentSpec& spec) {
    for (const auto& s : spec.servers) {
        if (s.standby_of.empty()) {
            continue;
        }
        if (s.standby_of == s.name) {
            ctx.diag.add(s.standby_of_pos, "server \"" + s.name + "\" cannot be its own standby",
                         "name the primary it replicates from in \"standby_of\"");
            continue;
        }
        check_server_ref(s.standby_of, s.standby_of_pos, "\"standby_of\"", ctx, spec);
        // follow the chain: it must reach a primary without coming back
        std::set<std::string> seen{s.name};
        const ServerSpec* cur = spec.find_server(s.standby_of);
        while (cur != nullptr && !cur->standby_of.empty()) {
            if (!seen.insert(cur->name).second) {
                ctx.diag.add(s.standby_of_pos,
                             "the standby chain of server \"" + s.name + "\" is a loop",
                             "one server of the chain must be a primary (no \"standby_of\")");
                break;
            }
            cur = spec.find_server(cur->standby_of);
        }
    }
}

void choose_default_server(ParseContext& ctx, ExperimentSpec& spec, const SourcePos& server_pos) {
    if (!spec.default_server.empty()) {
        check_server_ref(spec.default_server, server_pos, "\"server\"", ctx, spec);
        return;
    }
    std::vector<std::string> primaries;
    for (const auto& s : spec.servers) {
        if (s.standby_of.empty()) {
            primaries.push_back(s.name);
        }
    }
    if (primaries.size() == 1) {
        spec.default_server = primaries.front();
    } else if (spec.matrix.find("server") == nullptr && !primaries.empty()) {
        ctx.diag.add(spec.servers.front().pos,
                     "several servers (" + quoted_list(primaries, ", ")
                         + ") and nothing says which one the runs use",
                     "add server = \"" + primaries.front()
                         + "\" at the top of the file, or a \"server\" variable in [matrix]");
    }
}

/// Names `${...}` may use in steps, and filters and `when` conditions.
std::vector<std::string> variable_names(const ExperimentSpec& spec, bool per_run) {
    std::vector<std::string> names;
    for (const auto& v : spec.matrix.variables) {
        names.push_back(v.name);
    }
    if (spec.matrix.find("server") == nullptr) {
        names.emplace_back("server");
    }
    if (per_run) {
        names.emplace_back("repetition");
        names.emplace_back("warmup");
        names.emplace_back("run");
    }
    return names;
}

bool contains(const std::vector<std::string>& names, std::string_view name) {
    for (const auto& n : names) {
        if (n == name) {
            return true;
        }
    }
    return false;
}

std::string undefined_hint(std::string_view name) {
    const std::string n(name);
    if (n == "clients" || n == "threads" || n == "scale" || n == "rate" || n == "duration"
        || n == "transactions" || n.rfind("settings.", 0) == 0 || n.rfind("vars.", 0) == 0
        || n.rfind("params.", 0) == 0) {
        return "add it to [matrix]: " + n + " = [...] (one value is fine)";
    }
    return "use a [matrix] variable such as clients, settings.NAME, vars.NAME or params.NAME";
}

void check_template(const TextField& field, const std::vector<std::string>& names,
                    ParseContext& ctx) {
    const auto refs = template_refs(field.text);
    // offsets are exact for one-line strings without escapes; +1 skips the opening quote
    if (const auto* err = std::get_if<TemplateError>(&refs)) {
        ctx.diag.add(field.pos.shifted(static_cast<std::uint32_t>(err->offset + 1)), err->message,
                     "write ${name} for a matrix variable, or $${ for a literal \"${\"");
        return;
    }
    for (const auto& ref : std::get<std::vector<TemplateRef>>(refs)) {
        if (!contains(names, ref.name)) {
            ctx.diag.add(field.pos.shifted(static_cast<std::uint32_t>(ref.offset + 1)),
                         "undefined variable \"${" + ref.name + "}\""
                             + did_you_mean(ref.name, names),
                         undefined_hint(ref.name));
        }
    }
}

void check_condition(const FilterExpr& expr, const SourcePos& pos,
                     const std::vector<std::string>& names, std::string_view what,
                     ParseContext& ctx) {
    for (const auto& [name, offset] : expr.names()) {
        if (!contains(names, name)) {
            ctx.diag.add(pos.shifted(static_cast<std::uint32_t>(offset + 1)),
                         "undefined variable \"" + name + "\" in " + std::string(what)
                             + did_you_mean(name, names),
                         undefined_hint(name));
        }
    }
}

/// The step's session: declared, and on the step's server.
void check_session_ref(const Step& step, const std::string& what, ParseContext& ctx,
                       const ExperimentSpec& spec) {
    if (step.session.empty() || step.session == "default") {
        return;
    }
    const SessionSpec* found = nullptr;
    std::vector<std::string> sessions{"default"};
    for (const auto& s : spec.sessions) {
        sessions.push_back(s.name);
        if (s.name == step.session) {
            found = &s;
        }
    }
    if (found == nullptr) {
        ctx.diag.add(step.pos,
                     what + " uses undefined session \"" + step.session + "\""
                         + did_you_mean(step.session, sessions),
                     "declare it with [sessions." + step.session + "], or use one of "
                         + quoted_list(sessions));
    } else if (!found->server.empty() && !step.server.empty() && found->server != step.server) {
        ctx.diag.add(step.pos,
                     what + " runs on server \"" + step.server + "\" but session \"" + step.session
                         + "\" belongs to server \"" + found->server + "\"",
                     "remove \"server\" from the step; the session decides the server");
    }
}

/// The step's scripts: built-in ones that exist, declared [scripts.NAME].
void check_script_refs(const Step& step, const std::string& what, ParseContext& ctx,
                       const ExperimentSpec& spec) {
    for (const auto& ref : step.scripts) {
        if (ref.name.rfind("builtin:", 0) == 0) {
            const std::string b = ref.name.substr(8);
            if (b != "tpcb-like" && b != "simple-update" && b != "select-only") {
                ctx.diag.add(ref.pos, "unknown built-in script \"" + b + "\"",
                             "use builtin:tpcb-like, builtin:simple-update or builtin:select-only");
            }
            continue;
        }
        if (spec.find_script(ref.name) == nullptr) {
            std::vector<std::string> scripts;
            for (const auto& s : spec.scripts) {
                scripts.push_back(s.name);
            }
            ctx.diag.add(ref.pos,
                         what + " uses undefined script \"" + ref.name + "\""
                             + did_you_mean(ref.name, scripts),
                         "declare it with [scripts." + ref.name
                             + "] (text = \"\"\"...\"\"\" or file = \"...\")");
        }
    }
}

/// Every `${name}` of the step's fields names a variable.
void check_templates(const Step& step, const std::vector<std::string>& names, ParseContext& ctx) {
    for (const auto& f : step.statements) {
        check_template(f, names, ctx);
    }
    for (const auto& f : step.options) {
        check_template(f, names, ctx);
    }
    check_template(step.command, names, ctx);
    if (step.expect) {
        check_template(*step.expect, names, ctx);
    }
    if (step.expect_rows) {
        for (const auto& row : *step.expect_rows) {
            for (const auto& value : row) {
                check_template(value, names, ctx);
            }
        }
    }
}

void check_step(const Step& step, std::size_t index, ParseContext& ctx, const ExperimentSpec& spec,
                const std::vector<std::string>& names) {
    const std::string what = "step " + std::to_string(index + 1);
    check_server_ref(step.server, step.pos, what, ctx, spec);
    check_session_ref(step, what, ctx, spec);
    check_script_refs(step, what, ctx, spec);
    check_templates(step, names, ctx);
    if (step.when) {
        check_condition(*step.when, step.when_pos, names, "\"when\"", ctx);
    }
}

} // namespace

void check_references(ParseContext& ctx, ExperimentSpec& spec) {
    check_standbys(ctx, spec);
    for (const auto& s : spec.sessions) {
        check_server_ref(s.server, s.pos, "session \"" + s.name + "\"", ctx, spec);
    }
    if (const auto* var = spec.matrix.find("server")) {
        for (const auto& v : var->values) {
            if (v.is_string()) {
                check_server_ref(std::get<std::string>(v.value), v.pos, "[matrix] \"server\"", ctx,
                                 spec);
            }
        }
    }
    if (spec.matrix.filter) {
        check_condition(*spec.matrix.filter, spec.matrix.filter_pos, variable_names(spec, false),
                        "the filter", ctx);
    }
    const auto names = variable_names(spec, true);
    std::set<std::string> step_names;
    for (std::size_t i = 0; i < spec.steps.size(); ++i) {
        const Step& step = spec.steps[i];
        if (!step.name.empty() && !step_names.insert(step.name).second) {
            ctx.diag.add(step.pos, "duplicate step name \"" + step.name + "\"",
                         "give each step its own name (reports and results use it)");
        }
        check_step(step, i, ctx, spec, names);
    }
}

void check_default_server(ParseContext& ctx, ExperimentSpec& spec, const SourcePos& server_pos) {
    choose_default_server(ctx, spec, server_pos);
}

} // namespace pglab::lab::experiment
