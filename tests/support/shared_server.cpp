#include "support/shared_server.hpp"

#include "util/output_file.hpp"
#include "util/text_file.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <signal.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <optional>

namespace support {

namespace fs = std::filesystem;

EnvOverrides SharedServer::client_env(const std::string& dbname) const {
    return {{"PGHOST", socket_dir.string()},
            {"PGPORT", std::to_string(port)},
            {"PGUSER", user},
            {"PGDATABASE", dbname}};
}

pglab::Result<std::string> SharedServer::run_sql(const std::string& sql,
                                                 const std::string& dbname) const {
    const CommandResult r =
        run_command({psql.string(), "-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1", "-f", "-"},
                    client_env(dbname), sql, std::chrono::seconds(120));
    if (r.exit_code != 0) {
        return pglab::make_error(pglab::Error(fmt::format("psql: {}", describe(r))));
    }
    return r.out;
}

fs::path shared_server_state_file(const std::string& name) {
    const char* root = std::getenv("PGLAB_TEST_SHARED_DIR");
    if (root == nullptr || *root == '\0') {
        return {};
    }
    return fs::path(root) / (name + ".server.json");
}

pglab::Status write_shared_server_state(const fs::path& path, const SharedServer& server) {
    const nlohmann::json j = {{"holder_pid", server.holder_pid},
                              {"socket_dir", server.socket_dir.string()},
                              {"port", server.port},
                              {"user", server.user},
                              {"psql", server.psql.string()},
                              {"template_database", server.template_database}};
    return pglab::util::write_output_file(path, j.dump(2) + "\n");
}

pglab::Result<SharedServer> read_shared_server_state(const fs::path& path) {
    PGLAB_TRY_ASSIGN(const std::string text, pglab::util::read_text_file(path));
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    try {
        SharedServer s;
        s.holder_pid = j.at("holder_pid").get<pid_t>();
        s.socket_dir = j.at("socket_dir").get<std::string>();
        s.port = j.at("port").get<int>();
        s.user = j.at("user").get<std::string>();
        s.psql = j.at("psql").get<std::string>();
        s.template_database = j.at("template_database").get<std::string>();
        return s;
    } catch (const nlohmann::json::exception& e) {
        return pglab::make_error(
            fmt::format("{}: not a shared server's state: {}", path.string(), e.what()));
    }
}

namespace {

std::optional<SharedServer> find_shared_server() {
    const char* name = std::getenv("PGLAB_TEST_SHARED_SERVER");
    if (name == nullptr || *name == '\0') {
        return std::nullopt;
    }
    const fs::path state = shared_server_state_file(name);
    if (state.empty()) {
        return std::nullopt;
    }
    auto server = read_shared_server_state(state);
    if (!server) {
        std::fprintf(stderr, "shared server %s not used (%s): this case starts its own\n", name,
                     server.error().message.c_str());
        return std::nullopt;
    }
    if (::kill(server->holder_pid, 0) != 0 && errno == ESRCH) {
        std::fprintf(stderr,
                     "shared server %s not used (its holder, pid %d, has ended): this case "
                     "starts its own\n",
                     name, static_cast<int>(server->holder_pid));
        return std::nullopt;
    }
    return std::move(*server);
}

} // namespace

const SharedServer* shared_server() {
    static const std::optional<SharedServer> server = find_shared_server();
    return server ? &*server : nullptr;
}

} // namespace support
