// The libpq environment of a client that connects as pglab does (a shell step's psql).
#include "pg/conn_params.hpp"

#include <libpq-fe.h>

#include <map>

namespace pglab::pg {

namespace {

/// Whether libpq expands `dbname` as a connection string (its recognized_connection_string).
bool is_connection_string(const std::string& dbname) {
    return dbname.starts_with("postgresql://") || dbname.starts_with("postgres://")
           || dbname.find('=') != std::string::npos;
}

} // namespace

Result<std::vector<std::pair<std::string, std::string>>>
client_environment(const ConnParams& params) {
    std::map<std::string, std::string> env;
    const auto set = [&](const char* name, const std::string& value) {
        if (!value.empty()) {
            env[name] = value;
        }
    };
    set("PGHOST", params.host);
    set("PGPORT", params.port);
    set("PGUSER", params.user);
    set("PGPASSWORD", params.password);
    if (is_connection_string(params.dbname)) {
        char* error = nullptr;
        PQconninfoOption* options = PQconninfoParse(params.dbname.c_str(), &error);
        if (options == nullptr) {
            // libpq's message may quote a piece of the string, a password perhaps.
            PQfreemem(error);
            return make_error("invalid connection string");
        }
        for (const PQconninfoOption* o = options; o->keyword != nullptr; ++o) {
            if (o->envvar != nullptr && o->val != nullptr && *o->val != '\0') {
                env[o->envvar] = o->val;
            }
        }
        PQconninfoFree(options);
    } else {
        set("PGDATABASE", params.dbname);
    }
    set("PGOPTIONS", params.options);
    return std::vector<std::pair<std::string, std::string>>(env.begin(), env.end());
}

} // namespace pglab::pg
