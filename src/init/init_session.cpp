// pgbench's executeStatement and its raw stderr messages.
#include "init/init_session.hpp"

#include <cstdio>
#include <string>

namespace pglab::init {

Status InitSession::execute(std::string_view sql) const {
    auto res = conn.exec(sql);
    if (!res || res->status() != pg::ResultStatus::command_ok) {
        std::string message = conn.error_message();
        while (!message.empty() && message.back() == '\n') {
            message.pop_back();
        }
        return make_error(Error("query failed: " + message, "Query was: " + std::string(sql)));
    }
    return {};
}

void print_stderr(std::string_view text) {
    std::fwrite(text.data(), 1, text.size(), stderr);
    std::fflush(stderr);
}

} // namespace pglab::init
