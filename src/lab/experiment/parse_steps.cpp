// lab/experiment: the `[[steps]]` array: each step's type, its own keys and the keys all steps
// share.
#include "lab/experiment/coverage_items.hpp"
#include "lab/experiment/parse_parts.hpp"
#include "lab/experiment/suggest.hpp"
#include "lab/experiment/toml_reader.hpp"
#include "util/named_values.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

namespace pglab::lab::experiment {

namespace {

/// Every step type and its name in experiment files and results.
constexpr std::pair<StepType, const char*> k_step_types[] = {
    {StepType::init, "init"},       {StepType::sql, "sql"},
    {StepType::bench, "bench"},     {StepType::timed_sql, "timed-sql"},
    {StepType::explain, "explain"}, {StepType::restart, "restart"},
    {StepType::stop, "stop"},       {StepType::start, "start"},
    {StepType::promote, "promote"}, {StepType::checkpoint, "checkpoint"},
    {StepType::sleep, "sleep"},     {StepType::shell, "shell"},
};

} // namespace

const char* step_type_name(StepType type) {
    return util::name_of(k_step_types, type);
}

std::optional<StepType> step_type_named(std::string_view name) {
    return util::value_named(k_step_types, name);
}

bool is_measurable(StepType type) {
    return type == StepType::bench || type == StepType::timed_sql || type == StepType::explain
           || type == StepType::init || type == StepType::sql || type == StepType::shell;
}

namespace {

/// Every key some step type takes (for "does not apply" messages).
const std::vector<std::string> k_step_keys = {
    "sql",     "session",  "wait",    "expect_error", "expect",      "expect_rows",
    "timeout", "options",  "scripts", "analyze",      "expect_plan", "expect_blocked",
    "mode",    "duration", "command", "processes",    "hosts"};

std::vector<std::string> type_names() {
    return util::names_of(k_step_types);
}

/// `options` as a list of arguments, or as a table of long options in file order:
/// `{ client = 4, no_vacuum = true }` gives "--client=4", "--no-vacuum"; false omits the
/// option; an array repeats it; a one-letter key gives "-k" and its value as two arguments.
std::vector<TextField> read_options(TableReader& r, ParseContext& ctx) {
    const toml::node* n = r.get("options");
    if (n == nullptr) {
        return {};
    }
    if (!n->is_table()) {
        return r.string_list("options", "options = [\"--client=4\", \"--time=${duration}\"]")
            .value_or(std::vector<TextField>{});
    }

    struct Item {
        std::string key;
        const toml::node* value;
        SourcePos pos;
    };

    std::vector<Item> items;
    for (const auto& [k, v] : *n->as_table()) {
        items.push_back(Item{std::string(k.str()), &v, pos_of(k.source(), ctx.file)});
    }
    std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
        return std::pair(a.pos.line, a.pos.column) < std::pair(b.pos.line, b.pos.column);
    });
    std::vector<TextField> out;
    for (const auto& item : items) {
        std::string opt = item.key;
        std::replace(opt.begin(), opt.end(), '_', '-');
        const bool short_opt = opt.size() == 1;
        opt = (short_opt ? "-" : "--") + opt;
        const auto emit = [&](const toml::node& v) {
            auto sc = to_scalar(v, ctx.file, "option \"" + item.key + "\"", ctx.diag);
            if (!sc) {
                return;
            }
            if (sc->is_bool()) {
                if (std::get<bool>(sc->value)) {
                    out.push_back(TextField{opt, item.pos});
                }
            } else if (short_opt) {
                out.push_back(TextField{opt, item.pos});
                out.push_back(TextField{sc->text(), sc->pos});
            } else {
                out.push_back(TextField{opt + "=" + sc->text(), sc->pos});
            }
        };
        if (const auto* arr = item.value->as_array()) {
            for (const auto& v : *arr) {
                emit(v);
            }
        } else {
            emit(*item.value);
        }
    }
    return out;
}

/// A bench step's fleet: `processes = N` (through mpirun) on `hosts = ["a", "b"]`.
void read_fleet(TableReader& r, Step& step) {
    if (auto n = r.integer("processes", 1, 100000, "processes = 3")) {
        step.processes = static_cast<int>(*n);
    }
    if (auto hosts = r.string_list("hosts", "hosts = [\"client1\", \"client2\"]")) {
        for (const TextField& h : *hosts) {
            step.hosts.push_back(h.text);
        }
    }
}

std::vector<ScriptRef> read_scripts(TableReader& r, ParseContext& ctx) {
    const toml::node* n = r.get("scripts");
    std::vector<ScriptRef> out;
    if (n == nullptr) {
        return out;
    }
    const char* example = "scripts = [\"tx\", { name = \"ro\", weight = 3 }]";
    const auto one = [&](const toml::node& v) {
        if (const auto* s = v.as_string()) {
            out.push_back(ScriptRef{s->get(), 1, r.value_pos(v)});
            return;
        }
        if (const auto* t = v.as_table()) {
            TableReader tr(*t, "a script of " + r.where(), ctx.file, ctx.diag);
            ScriptRef ref;
            ref.pos = r.value_pos(v);
            const auto name = tr.string("name", "name = \"tx\"");
            if (!name) {
                if (t->get("name") == nullptr) {
                    ctx.diag.add(ref.pos, "a script of " + r.where() + " has no \"name\"", example);
                }
            } else {
                ref.name = *name;
            }
            ref.weight = tr.integer("weight", 0, 1'000'000, "weight = 3").value_or(1);
            tr.finish();
            if (name) {
                out.push_back(ref);
            }
            return;
        }
        r.type_error("scripts", v, "a script name or a { name, weight } table", example);
    };
    if (const auto* arr = n->as_array()) {
        for (const auto& v : *arr) {
            one(v);
        }
    } else {
        one(*n);
    }
    return out;
}

void read_when(TableReader& r, ParseContext& ctx, Step& step) {
    const auto when = r.string("when", "when = \"params.index == true\"");
    if (!when) {
        return;
    }
    step.when_pos = r.value_pos(*r.get("when"));
    std::size_t offset = 0;
    auto expr = FilterExpr::parse(*when, &offset);
    if (!expr) {
        ctx.diag.add(step.when_pos.shifted(static_cast<std::uint32_t>(offset + 1)),
                     "invalid \"when\" condition: " + expr.error().message,
                     "write a condition such as params.index == true && clients > 1");
        return;
    }
    step.when = std::move(*expr);
}

/// `expect_rows`: a list of rows, each a list of values or one value (a one-column row); values
/// are strings, numbers or booleans, compared as the text PostgreSQL returns.
void read_expect_rows(TableReader& r, Step& step) {
    const toml::node* n = r.get("expect_rows");
    if (n == nullptr) {
        return;
    }
    const char* example = "expect_rows = [[\"1\", \"a\"], [\"2\", \"b\"]] or [\"a\", \"b\"]";
    step.expect_rows_pos = r.value_pos(*n);
    const auto* rows = n->as_array();
    if (rows == nullptr) {
        r.type_error("expect_rows", *n, "an array of rows", example);
        return;
    }
    std::vector<std::vector<TextField>> out;
    const auto value = [&](const toml::node& v, std::vector<TextField>& row) {
        auto sc = to_scalar(v, r.file(), "a value of \"expect_rows\"", r.diag());
        if (sc) {
            row.push_back(TextField{sc->text(), sc->pos});
        }
    };
    for (const auto& row_node : *rows) {
        std::vector<TextField> row;
        if (const auto* cols = row_node.as_array()) {
            for (const auto& c : *cols) {
                value(c, row);
            }
        } else {
            value(row_node, row);
        }
        out.push_back(std::move(row));
    }
    step.expect_rows = std::move(out);
}

/// The checks of a `sql` step that cannot go together.
void check_sql_expectations(TableReader& r, const Step& step) {
    const auto both = [&](const char* a, bool has_a, const char* b, bool has_b, const char* hint) {
        if (has_a && has_b) {
            r.diag().add(r.key_pos(b),
                         fmt::format("a \"sql\" step cannot have both \"{}\" and \"{}\"", a, b),
                         hint);
        }
    };
    const bool error = !step.expect_error.empty();
    const bool blocked = step.expect_blocked_ms > 0;
    const char* value_or_error =
        "keep one: the value the statement returns, or the error it raises";
    both("expect_error", error, "expect", step.expect.has_value(), value_or_error);
    both("expect_error", error, "expect_rows", step.expect_rows.has_value(), value_or_error);
    const char* blocked_hint = "a statement that must stay blocked has no result to check: check "
                               "it in a later step of its session";
    both("expect", step.expect.has_value(), "expect_blocked", blocked, blocked_hint);
    both("expect_rows", step.expect_rows.has_value(), "expect_blocked", blocked, blocked_hint);
    both("expect_error", error, "expect_blocked", blocked, blocked_hint);
    if (blocked && !step.wait) {
        r.diag().add(r.key_pos("wait"),
                     "a \"sql\" step cannot have both \"wait = false\" and \"expect_blocked\"",
                     "expect_blocked already leaves the statement running: remove wait = false");
    }
}

/// A key the step's type needs, reported when it is absent (one of another type the reader has
/// reported already).
void require_key(TableReader& r, ParseContext& ctx, const Step& step, const char* key,
                 const std::string& hint) {
    if (r.get(key) == nullptr) {
        ctx.diag.add(step.pos,
                     fmt::format("a \"{}\" step needs \"{}\"", step_type_name(step.type), key),
                     hint);
    }
}

void read_timeout(TableReader& r, Step& step) {
    step.timeout_ms = r.duration_ms("timeout", "timeout = \"5min\"").value_or(0);
}

void read_session(TableReader& r, Step& step) {
    step.session = r.string("session", "session = \"writer\"").value_or("");
}

/// The one statement of a timed-sql or explain step, with its session and timeout.
void read_one_statement(TableReader& r, ParseContext& ctx, Step& step, const char* example) {
    read_session(r, step);
    read_timeout(r, step);
    const auto sql = r.text("sql", example);
    if (sql) {
        step.statements.push_back(*sql);
    } else {
        require_key(r, ctx, step, "sql", std::string("add the statement: ") + example);
    }
}

void read_sql_keys(TableReader& r, ParseContext& ctx, Step& step) {
    read_session(r, step);
    read_timeout(r, step);
    const auto sql = r.string_list("sql", "sql = [\"CREATE TABLE t (id int)\", \"...\"]");
    if (sql) {
        step.statements = *sql;
    } else {
        require_key(r, ctx, step, "sql",
                    "add the statements: sql = \"...\" or sql = [\"...\", \"...\"]");
    }
    step.wait = r.boolean("wait", "wait = false").value_or(true);
    step.expect_error = r.string("expect_error", "expect_error = \"23P01\"").value_or("");
    step.expect = r.text("expect", "expect = \"100\"");
    read_expect_rows(r, step);
    step.expect_blocked_ms = r.duration_ms("expect_blocked", "expect_blocked = \"2s\"").value_or(0);
    check_sql_expectations(r, step);
}

void read_explain_keys(TableReader& r, ParseContext& ctx, Step& step) {
    read_one_statement(r, ctx, step,
                       "sql = \"SELECT aid FROM pgbench_accounts WHERE aid < 300001\"");
    step.analyze = r.boolean("analyze", "analyze = false").value_or(true);
    if (auto plan = r.string_list("expect_plan", "expect_plan = \"Index Only Scan\"")) {
        for (const auto& node : *plan) {
            step.expect_plan.push_back(node.text);
        }
    }
}

void read_sleep_keys(TableReader& r, ParseContext& ctx, Step& step) {
    if (auto ms = r.duration_ms("duration", "duration = \"1s\"")) {
        step.duration_ms = *ms;
    } else {
        require_key(r, ctx, step, "duration", "add how long to wait: duration = \"1s\"");
    }
}

void read_shell_keys(TableReader& r, ParseContext& ctx, Step& step) {
    read_timeout(r, step);
    if (auto cmd = r.text("command", "command = \"sync\"")) {
        step.command = *cmd;
    } else {
        require_key(r, ctx, step, "command", "add the command line: command = \"...\"");
    }
}

void read_type_keys(TableReader& r, ParseContext& ctx, Step& step) {
    switch (step.type) {
    case StepType::init:
        step.options = read_options(r, ctx);
        break;
    case StepType::bench:
        step.options = read_options(r, ctx);
        step.scripts = read_scripts(r, ctx);
        read_fleet(r, step);
        break;
    case StepType::sql:
        read_sql_keys(r, ctx, step);
        break;
    case StepType::timed_sql:
        read_one_statement(r, ctx, step, "sql = \"VACUUM VERBOSE t\"");
        break;
    case StepType::explain:
        read_explain_keys(r, ctx, step);
        break;
    case StepType::restart:
    case StepType::stop:
        if (auto mode = r.choice("mode", {"fast", "smart", "immediate"})) {
            step.mode = *mode;
        }
        break;
    case StepType::sleep:
        read_sleep_keys(r, ctx, step);
        break;
    case StepType::shell:
        read_shell_keys(r, ctx, step);
        break;
    case StepType::start:
    case StepType::promote:
    case StepType::checkpoint:
        break;
    }
}

/// `deviation = "why"`: the step is not the paper's; the text says why pglab runs it.
void read_deviation(TableReader& r, Step& step) {
    const auto text = r.string("deviation", "deviation = \"the paper ran VACUUM right after the "
                                            "UPDATE; this cell starts it from a checkpoint\"");
    if (!text) {
        return;
    }
    if (text->find_first_not_of(" \t\n") == std::string::npos) {
        r.diag().add(r.value_pos(*r.get("deviation")),
                     "\"deviation\" is empty: it says why the step departs from the paper",
                     "deviation = \"the paper did not ...; pglab adds it to ...\"");
        return;
    }
    step.deviation = *text;
}

/// `sample_waits = "100ms"`: how often pg_stat_activity is sampled during a measured step.
void read_sample_waits(TableReader& r, Step& step) {
    constexpr std::int64_t k_min_period_ms = 10;
    const auto ms = r.duration_ms("sample_waits", "sample_waits = \"100ms\"");
    if (!ms) {
        return;
    }
    if (*ms < k_min_period_ms) {
        r.diag().add(r.key_pos("sample_waits"),
                     "\"sample_waits\" must be at least 10ms (a sample costs the server a scan "
                     "of its sessions)",
                     "sample less often: sample_waits = \"100ms\"");
        return;
    }
    const bool measurable = is_measurable(step.type);
    if (!measurable || !step.measure) {
        r.diag().add(r.key_pos("sample_waits"),
                     "\"sample_waits\" applies to a measured step: the samples are recorded "
                     "with its probes",
                     measurable ? "measure the step too: measure = true"
                                : "sample a bench, sql, timed-sql, explain, init or shell step");
        return;
    }
    step.sample_waits_ms = *ms;
}

std::optional<Step> read_step(const toml::table& t, std::size_t index, ParseContext& ctx) {
    const std::string where = "step " + std::to_string(index + 1);
    TableReader r(t, where, ctx.file, ctx.diag);
    Step step;
    step.pos = r.pos();
    const auto type = r.string("type", "type = \"bench\"");
    if (!type) {
        if (t.get("type") == nullptr) {
            ctx.diag.add(step.pos, where + " has no \"type\"",
                         "add type = one of " + quoted_list(type_names()));
        }
        return std::nullopt;
    }
    const auto found = util::value_named(k_step_types, *type);
    if (!found) {
        ctx.diag.add(r.value_pos(*t.get("type")),
                     "unknown step type \"" + *type + "\"" + did_you_mean(*type, type_names()),
                     "use one of " + quoted_list(type_names()));
        return std::nullopt;
    }
    step.type = *found;
    TableReader typed(t, where + " (" + *type + ")", ctx.file, ctx.diag);
    typed.allow("type");
    if (auto name = typed.string("name", "name = \"vacuum\"")) {
        if (check_name(*name, "step", typed.key_pos("name"), ctx)) {
            step.name = *name;
        }
    }
    step.server = typed.string("server", "server = \"pg16\"").value_or("");
    step.measure = step.type == StepType::bench || step.type == StepType::timed_sql
                   || step.type == StepType::explain;
    step.measure = typed.boolean("measure", "measure = false").value_or(step.measure);
    step.once = typed.boolean("once", "once = true").value_or(false);
    read_deviation(typed, step);
    step.items = read_coverage_items(typed);
    read_sample_waits(typed, step);
    read_when(typed, ctx, step);
    read_type_keys(typed, ctx, step);
    typed.finish(k_step_keys, "other step types");
    return step;
}

} // namespace

void parse_steps(const toml::node* node, ParseContext& ctx, ExperimentSpec& spec) {
    const char* example = "[[steps]] then type = \"bench\"";
    if (node == nullptr) {
        ctx.diag.add(SourcePos{ctx.file, 1, 1}, "the experiment has no steps",
                     std::string("add at least one step: ") + example);
        return;
    }
    const auto* arr = node->as_array();
    if (arr != nullptr && arr->empty()) {
        ctx.diag.add(pos_of(node->source(), ctx.file), "the experiment has no steps",
                     std::string("add at least one step: ") + example);
    }
    for_each_table(*node, "steps", "step", example, ctx,
                   [&](const toml::table& t, std::size_t index) {
                       if (auto step = read_step(t, index, ctx)) {
                           spec.steps.push_back(std::move(*step));
                       }
                   });
}

} // namespace pglab::lab::experiment
