// lab/experiment: the `[servers]`, `[sessions]` and `[scripts]` sections of an experiment file.
#include "lab/experiment/duration.hpp"
#include "lab/experiment/parse_parts.hpp"
#include "lab/experiment/settings_presets.hpp"
#include "lab/experiment/suggest.hpp"
#include "lab/experiment/toml_reader.hpp"
#include "util/text.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

namespace pglab::lab::experiment {

const toml::table* expect_table(const toml::node* node, std::string_view what,
                                std::string_view example, ParseContext& ctx) {
    if (node == nullptr) {
        return nullptr;
    }
    if (const auto* t = node->as_table()) {
        return t;
    }
    ctx.diag.add(pos_of(node->source(), ctx.file),
                 std::string(what) + " must be a table, not a " + toml_type_name(*node),
                 "write it as: " + std::string(example));
    return nullptr;
}

bool for_each_table(const toml::node& node, std::string_view key, std::string_view what,
                    std::string_view example, ParseContext& ctx,
                    const std::function<void(const toml::table&, std::size_t)>& each) {
    const auto* arr = node.as_array();
    if (arr == nullptr) {
        ctx.diag.add(pos_of(node.source(), ctx.file),
                     "\"" + std::string(key) + "\" must be an array of tables, not a "
                         + toml_type_name(node),
                     "write each " + std::string(what) + " as " + std::string(example));
        return false;
    }
    std::size_t index = 0;
    for (const auto& v : *arr) {
        if (const auto* t = v.as_table()) {
            each(*t, index);
        } else {
            ctx.diag.add(pos_of(v.source(), ctx.file),
                         std::string(what) + " " + std::to_string(index + 1)
                             + " must be a table, not a " + toml_type_name(v),
                         "write each " + std::string(what) + " as " + std::string(example));
        }
        ++index;
    }
    return true;
}

bool check_name(std::string_view name, std::string_view what, const SourcePos& pos,
                ParseContext& ctx) {
    bool ok = !name.empty() && name.size() <= 63
              && ((name[0] >= 'a' && name[0] <= 'z') || (name[0] >= 'A' && name[0] <= 'Z'));
    for (const char c : name) {
        ok = ok
             && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                 || c == '_' || c == '-');
    }
    if (!ok) {
        ctx.diag.add(pos, "invalid " + std::string(what) + " name \"" + std::string(name) + "\"",
                     "use up to 63 letters, digits, \"_\" and \"-\", starting with a letter");
    }
    return ok;
}

namespace {

void read_settings(const toml::node* node, TableReader& r, ParseContext& ctx, ServerSpec& s) {
    const auto* t = expect_table(node, "\"settings\" in " + r.where(),
                                 "settings = { shared_buffers = \"256MB\", fsync = false }", ctx);
    if (t == nullptr) {
        return;
    }
    auto add = [&](std::string name, const toml::node& value, const toml::key& key) {
        if (auto sc = to_scalar(value, ctx.file, "setting \"" + name + "\"", ctx.diag)) {
            s.settings.push_back(Setting{std::move(name), *sc, pos_of(key.source(), ctx.file)});
        }
    };
    for (const auto& [k, v] : *t) {
        if (const auto* custom = v.as_table()) {
            // `settings.auto_explain.log_min_duration`: custom settings are dotted names
            for (const auto& [k2, v2] : *custom) {
                add(std::string(k.str()) + "." + std::string(k2.str()), v2, k2);
            }
        } else {
            add(std::string(k.str()), v, k);
        }
    }
    // TOML tables iterate in key order; keep the order of the file
    std::stable_sort(s.settings.begin(), s.settings.end(), [](const Setting& a, const Setting& b) {
        return std::pair(a.pos.line, a.pos.column) < std::pair(b.pos.line, b.pos.column);
    });
}

void read_environment(const toml::node* node, TableReader& r, ParseContext& ctx, ServerSpec& s) {
    const auto* t = expect_table(node, "\"environment\" in " + r.where(),
                                 "environment = { LD_PRELOAD = \"/usr/lib/libslowsync.so\" }", ctx);
    if (t == nullptr) {
        return;
    }
    for (const auto& [k, v] : *t) {
        if (const auto* str = v.as_string()) {
            s.environment.emplace_back(std::string(k.str()), str->get());
        } else {
            ctx.diag.add(pos_of(v.source(), ctx.file),
                         "environment variable \"" + std::string(k.str())
                             + "\" must be a string, not a " + toml_type_name(v),
                         "quote the value: " + std::string(k.str()) + " = \"...\"");
        }
    }
}

/// `defaults = "9.2"`: an older release's defaults (settings_presets.hpp), before the file's
/// own `settings`, which override them.
void read_defaults(TableReader& r, const toml::table& t, ParseContext& ctx, ServerSpec& s) {
    const auto name = r.string("defaults", "defaults = \"9.2\"");
    if (!name) {
        return;
    }
    const SourcePos pos = r.value_pos(*t.get("defaults"));
    const SettingsPreset* preset = find_settings_preset(*name);
    if (preset == nullptr) {
        ctx.diag.add(pos,
                     "unknown defaults \"" + *name + "\" in " + r.where()
                         + did_you_mean(*name, settings_preset_names()),
                     "use one of " + quoted_list(settings_preset_names())
                         + ": a release's defaults where they differ from today's");
        return;
    }
    std::vector<Setting> from_preset;
    for (const auto& entry : preset->settings) {
        // A name, not a structured binding: clang before 16 (the sanitizer build's) cannot
        // capture a structured binding in a lambda.
        const std::string_view setting = entry.first;
        const bool given = std::any_of(s.settings.begin(), s.settings.end(), [&](const Setting& x) {
            return util::ascii_lower(x.name) == setting;
        });
        if (!given) {
            from_preset.push_back(
                Setting{std::string(setting), Scalar{std::string(entry.second), pos}, pos});
        }
    }
    s.settings.insert(s.settings.begin(), from_preset.begin(), from_preset.end());
}

/// `sync_delay`: a duration ("2ms", "500us", a number of seconds), at most one second.
void read_sync_delay(TableReader& r, ParseContext& ctx, ServerSpec& s) {
    const toml::node* n = r.get("sync_delay");
    if (n == nullptr) {
        return;
    }
    constexpr std::int64_t k_max_us = 1'000'000;
    std::optional<std::int64_t> us;
    if (const auto* str = n->as_string()) {
        us = parse_duration_us(str->get());
    } else if (const auto* i = n->as_integer()) {
        us = i->get() >= 0 && i->get() <= 1 ? std::optional<std::int64_t>(i->get() * k_max_us)
                                            : std::nullopt;
    }
    if (!us || *us > k_max_us) {
        ctx.diag.add(r.value_pos(*n),
                     "invalid \"sync_delay\" in " + r.where()
                         + ": a duration of at most 1s is expected",
                     "write the time each sync takes longer: sync_delay = \"2ms\" (units us, ms, "
                     "s; \"0ms\" counts syncs without slowing them)");
        return;
    }
    s.sync_delay_us = us;
}

/// `memory_limit`: bytes, a number or "512MB" (kB, MB, GB, TB as PostgreSQL), at least 16MB.
void read_memory_limit(TableReader& r, ParseContext& ctx, ServerSpec& s) {
    const toml::node* n = r.get("memory_limit");
    if (n == nullptr) {
        return;
    }
    constexpr std::uint64_t k_min_bytes = 16ULL << 20;
    std::optional<std::uint64_t> bytes;
    if (const auto* str = n->as_string()) {
        bytes = parse_size_bytes(str->get());
    } else if (const auto* i = n->as_integer()) {
        bytes = i->get() >= 0 ? std::optional<std::uint64_t>(static_cast<std::uint64_t>(i->get()))
                              : std::nullopt;
    }
    if (!bytes || *bytes < k_min_bytes) {
        ctx.diag.add(r.value_pos(*n),
                     "invalid \"memory_limit\" in " + r.where()
                         + ": a size of at least 16MB is expected",
                     "write the server's memory limit, page cache included: memory_limit = "
                     "\"512MB\" (units kB, MB, GB, TB, or a number of bytes)");
        return;
    }
    s.memory_limit_bytes = bytes;
    s.memory_limit_pos = r.value_pos(*n);
}

/// Each entry of a `[SECTION]` table, its name checked as a `what` name, given to `read` with
/// the key's position and its value.
template <typename Read>
void for_each_named(const toml::table& t, const char* what, ParseContext& ctx, Read read) {
    for (const auto& [k, v] : t) {
        const std::string name(k.str());
        const SourcePos kp = pos_of(k.source(), ctx.file);
        check_name(name, what, kp, ctx);
        read(name, kp, v);
    }
}

/// The keys of `[servers.NAME]`.
const std::vector<std::string> k_server_keys = {
    "version",     "bin_dir",    "source",       "source_made_by", "configure", "conninfo",
    "settings",    "defaults",   "initdb",       "data_dir",       "auth",      "tcp",
    "environment", "sync_delay", "memory_limit", "standby_of",     "archive"};

/// A major ("16"), a release ("17.8") or a pre-release as PostgreSQL names it ("19rc1",
/// "18beta2"): what server::version_matches compares with an installation's version.
bool is_version_text(std::string_view text) {
    size_t i = 0;
    auto digits = [&] {
        const size_t start = i;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
            ++i;
        }
        return i > start;
    };
    if (!digits()) {
        return false;
    }
    while (i < text.size() && text[i] == '.') {
        ++i;
        if (!digits()) {
            return false;
        }
    }
    for (const std::string_view stage : {"rc", "beta", "alpha"}) {
        if (text.substr(i).starts_with(stage)) {
            i += stage.size();
            return digits() && i == text.size();
        }
    }
    return i == text.size();
}

/// Where the server comes from: `version`, `bin_dir`, `source` (one of them) or `conninfo` (an
/// existing server, which then takes none of the keys of a server pglab creates).
void read_installation(TableReader& r, const toml::table& t, ParseContext& ctx, ServerSpec& s) {
    const auto version = r.string("version", "version = \"16\"");
    const auto bin_dir = r.string("bin_dir", "bin_dir = \"/usr/lib/postgresql/16/bin\"");
    const auto source = r.string("source", "source = \"../postgresql\"");
    const auto made_by = r.string("source_made_by", "source_made_by = \"scripts/make-trees\"");
    const auto configure = r.string_list("configure", "configure = [\"--enable-debug\"]");
    const auto conninfo = r.string("conninfo", "conninfo = \"host=db1 port=5432 dbname=bench\"");
    if (version) {
        s.version = *version;
        s.installation_pos = r.value_pos(*t.get("version"));
        if (!is_version_text(*version)) {
            ctx.diag.add(r.value_pos(*t.get("version")),
                         "invalid PostgreSQL version \"" + *version + "\" in " + r.where(),
                         "write a major version or a release: version = \"16\", \"17.8\" or "
                         "\"19rc1\"");
        }
    }
    if (bin_dir) {
        s.bin_dir = *bin_dir;
        s.installation_pos = r.value_pos(*t.get("bin_dir"));
    }
    if (version && bin_dir) {
        ctx.diag.add(r.key_pos("bin_dir"),
                     "\"version\" and \"bin_dir\" cannot both be given in " + r.where(),
                     "keep one: a version pglab looks up, or the bin directory to use");
    }
    if (source) {
        std::filesystem::path tree(*source);
        if (tree.is_relative()) {
            tree = ctx.base_dir / tree;
        }
        // Absolute: the plan records it, and --resume reads the file's copy from elsewhere.
        std::error_code ec;
        const std::filesystem::path absolute = std::filesystem::absolute(tree, ec);
        s.source = (ec ? tree : absolute).lexically_normal().string();
        s.installation_pos = r.value_pos(*t.get("source"));
        if (source->empty()) {
            ctx.diag.add(r.value_pos(*t.get("source")), "empty \"source\" in " + r.where(),
                         "write the path of a PostgreSQL source tree: source = \"../postgresql\"");
        }
        if (version || bin_dir) {
            ctx.diag.add(r.key_pos("source"),
                         "\"source\" cannot be given with \""
                             + std::string(version ? "version" : "bin_dir") + "\" in " + r.where(),
                         "keep one: a source tree pglab builds, a version it looks up, or the bin "
                         "directory to use");
        }
    }
    if (made_by) {
        s.source_made_by = *made_by;
        if (!source) {
            ctx.diag.add(r.key_pos("source_made_by"),
                         "\"source_made_by\" needs \"source\" in " + r.where(),
                         "source_made_by names the command that makes the source tree: add "
                         "source = \"PATH\", or remove source_made_by");
        }
    }
    if (configure) {
        for (const TextField& option : *configure) {
            s.configure.push_back(option.text);
        }
        if (!source) {
            ctx.diag.add(r.key_pos("configure"), "\"configure\" needs \"source\" in " + r.where(),
                         "configure options are those of the build of a source tree: add source "
                         "= \"PATH\", or remove configure");
        }
    }
    if (conninfo) {
        s.conninfo = *conninfo;
        if (conninfo->empty()) {
            ctx.diag.add(r.value_pos(*t.get("conninfo")), "empty \"conninfo\" in " + r.where(),
                         "write the server's connection string: conninfo = \"host=... port=...\"");
        }
    }
    const auto mark_existing_conflict = [&](std::string_view key) {
        if (conninfo && t.get(key) != nullptr) {
            ctx.diag.add(r.key_pos(key),
                         "\"" + std::string(key) + "\" cannot be used with \"conninfo\" in "
                             + r.where() + ": pglab does not manage an existing server",
                         "remove \"" + std::string(key)
                             + "\", or remove \"conninfo\" to let pglab create the server");
        }
    };
    for (const char* key : {"version", "bin_dir", "source", "source_made_by", "configure", "initdb",
                            "data_dir", "auth", "tcp", "environment", "standby_of", "sync_delay",
                            "memory_limit", "defaults", "archive"}) {
        mark_existing_conflict(key);
    }
}

ServerSpec read_server(const std::string& name, const toml::table& t, ParseContext& ctx) {
    TableReader r(t, "[servers." + name + "]", ctx.file, ctx.diag);
    ServerSpec s;
    s.name = name;
    s.pos = r.pos();
    read_installation(r, t, ctx, s);
    read_settings(r.get("settings"), r, ctx, s);
    read_defaults(r, t, ctx, s);
    if (auto init = r.string_list("initdb", "initdb = [\"--data-checksums\"]")) {
        s.initdb_options = *init;
    }
    if (auto dd = r.string("data_dir", "data_dir = \"/mnt/zfs-8k/pglab\"")) {
        s.data_dir = *dd;
    }
    if (auto auth = r.choice("auth", {"trust", "scram-sha-256"})) {
        s.auth = *auth == "trust" ? AuthMode::trust : AuthMode::scram_sha_256;
    }
    if (auto tcp = r.boolean("tcp", "tcp = true")) {
        s.tcp = *tcp;
    }
    read_environment(r.get("environment"), r, ctx, s);
    read_sync_delay(r, ctx, s);
    read_memory_limit(r, ctx, s);
    s.archive = r.boolean("archive", "archive = true").value_or(false);
    if (auto standby = r.string("standby_of", "standby_of = \"primary\"")) {
        s.standby_of = *standby;
        s.standby_of_pos = r.value_pos(*t.get("standby_of"));
    }
    r.finish();
    return s;
}

} // namespace

QuickServer parse_quick_server(const ServerSpec& server, const toml::table& t, ParseContext& ctx) {
    TableReader r(t, "[quick.servers." + server.name + "]", ctx.file, ctx.diag);
    ServerSpec read;
    read_sync_delay(r, ctx, read);
    read_memory_limit(r, ctx, read);
    r.finish(k_server_keys, "[servers." + server.name
                                + "], which the quick form keeps as it is "
                                  "(it changes memory_limit and sync_delay only)");
    QuickServer q;
    q.name = server.name;
    q.pos = r.pos();
    q.memory_limit_bytes = read.memory_limit_bytes;
    q.memory_limit_pos = read.memory_limit_pos;
    q.sync_delay_us = read.sync_delay_us;
    if (!server.conninfo.empty() && (q.memory_limit_bytes || q.sync_delay_us)) {
        ctx.diag.add(q.pos,
                     "[quick.servers." + server.name
                         + "] cannot change a server given by "
                           "\"conninfo\": pglab does not manage an existing server",
                     "remove [quick.servers." + server.name + "]");
    }
    return q;
}

void parse_servers(const toml::node* node, ParseContext& ctx, ExperimentSpec& spec) {
    const auto* t = expect_table(node, "\"servers\"", "[servers.pg16] then version = \"16\"", ctx);
    if (t == nullptr || t->empty()) {
        if (node == nullptr) {
            ServerSpec def;
            def.name = "default";
            def.implicit = true;
            def.pos.file = ctx.file;
            spec.servers.push_back(def);
        } else if (t != nullptr) {
            ctx.diag.add(pos_of(t->source(), ctx.file), "[servers] declares no server",
                         "add [servers.NAME] tables, or remove [servers] to use the embedded "
                         "default server");
        }
        return;
    }
    for_each_named(
        *t, "server", ctx, [&](const std::string& name, const SourcePos&, const toml::node& v) {
            const auto* st = expect_table(&v, "server \"" + name + "\"",
                                          "[servers." + name + "] then version = \"16\"", ctx);
            if (st != nullptr) {
                spec.servers.push_back(read_server(name, *st, ctx));
            }
        });
}

void parse_sessions(const toml::node* node, ParseContext& ctx, ExperimentSpec& spec) {
    const auto* t = expect_table(node, "\"sessions\"", "[sessions.writer]", ctx);
    if (t == nullptr) {
        return;
    }
    for_each_named(*t, "session", ctx,
                   [&](const std::string& name, const SourcePos& kp, const toml::node& v) {
                       if (name == "default") {
                           ctx.diag.add(kp, "session \"default\" cannot be declared",
                                        "it always exists; give this session another name");
                       }
                       const auto* st = expect_table(&v, "session \"" + name + "\"",
                                                     name + " = { server = \"pg16\" }", ctx);
                       if (st == nullptr) {
                           return;
                       }
                       TableReader r(*st, "[sessions." + name + "]", ctx.file, ctx.diag);
                       SessionSpec s;
                       s.name = name;
                       s.pos = kp;
                       s.server = r.string("server", "server = \"pg16\"").value_or("");
                       s.database = r.string("database", "database = \"postgres\"").value_or("");
                       r.finish();
                       spec.sessions.push_back(s);
                   });
}

void parse_scripts(const toml::node* node, ParseContext& ctx, ExperimentSpec& spec) {
    const auto* t = expect_table(node, "\"scripts\"", "[scripts.tx] then file = \"tx.sql\"", ctx);
    if (t == nullptr) {
        return;
    }
    for_each_named(
        *t, "script", ctx, [&](const std::string& name, const SourcePos& kp, const toml::node& v) {
            const auto* st = expect_table(&v, "script \"" + name + "\"",
                                          name + " = { file = \"" + name + ".sql\" }", ctx);
            if (st == nullptr) {
                return;
            }
            TableReader r(*st, "[scripts." + name + "]", ctx.file, ctx.diag);
            ScriptSpec s;
            s.name = name;
            s.pos = kp;
            const auto text =
                r.string("text", "text = \"\"\"\\set aid random(1, 100000)\\n...\"\"\"");
            const auto file = r.string("file", "file = \"tx.sql\"");
            if (text && file) {
                ctx.diag.add(r.key_pos("file"),
                             "script \"" + name + "\" has both \"text\" and \"file\"",
                             "keep one: the script inline in \"text\", or its path in \"file\"");
            } else if (!text && !file) {
                if (st->get("text") == nullptr && st->get("file") == nullptr) {
                    ctx.diag.add(kp, "script \"" + name + "\" has neither \"text\" nor \"file\"",
                                 "add text = \"\"\"...\"\"\" or file = \"" + name + ".sql\"");
                }
            } else if (text) {
                s.text = *text;
            } else {
                std::filesystem::path p(*file);
                if (p.is_relative()) {
                    p = ctx.base_dir / p;
                }
                s.file = p.string();
                if (ctx.read_files) {
                    std::ifstream in(p, std::ios::binary);
                    std::ostringstream buf;
                    if (in.is_open()) {
                        buf << in.rdbuf();
                    }
                    if (!in.is_open() || in.bad()) {
                        ctx.diag.add(r.value_pos(*st->get("file")),
                                     "could not read script file \"" + s.file + "\"",
                                     "check the path; relative paths start at the experiment "
                                     "file's directory");
                    } else {
                        s.text = buf.str();
                    }
                }
            }
            r.finish();
            spec.scripts.push_back(s);
        });
}

} // namespace pglab::lab::experiment
