// lab/run: experiment.toml without passwords, and the file a resumed plan reads.
#include "lab/run/experiment_copy.hpp"

#include "lab/experiment/connection_strings.hpp"
#include "pg/conn_params.hpp"
#include "util/log.hpp"
#include "util/text_file.hpp"

#include <fmt/format.h>

namespace pglab::lab::run {

namespace fs = std::filesystem;

namespace {

/// Whether some connection string of `text` has a masked password.
bool has_masked_password(const std::string& text) {
    bool masked = false;
    (void)experiment::rewrite_connection_strings(text, [&](const std::string& value) {
        masked = masked || value.find(pg::k_redacted_password) != std::string::npos;
        return value;
    });
    return masked;
}

} // namespace

Result<std::string> masked_experiment_text(const fs::path& path) {
    PGLAB_TRY_ASSIGN(const std::string text, util::read_text_file(path));
    auto masked = experiment::rewrite_connection_strings(
        text, [](const std::string& value) { return pg::redact_conninfo(value); });
    if (!masked) {
        return make_error(fmt::format("could not mask the passwords of \"{}\" for its copy: {}",
                                      path.string(), masked.error().message));
    }
    return masked;
}

fs::path resume_experiment(const store::ResultsStore& store) {
    const fs::path copy = store.experiment_copy();
    const auto copy_text = util::read_text_file(copy);
    if (!copy_text) {
        return copy; // the parser says what is wrong with it
    }
    const std::string& file = store.plan().file;
    if (!file.empty()) {
        const auto original = util::read_text_file(file);
        if (original && *original != *copy_text) {
            const auto masked = masked_experiment_text(file);
            if (masked && *masked == *copy_text) {
                return file;
            }
        }
    }
    if (has_masked_password(*copy_text)) {
        log::warning("\"{}\" keeps the experiment's passwords masked, and \"{}\", which it was "
                     "copied from, is gone or has changed: connections that need one of them "
                     "will fail",
                     copy.string(), file);
        log::hint(fmt::format("put \"{}\" back as it was, or give the passwords in PGPASSWORD or "
                              "~/.pgpass and remove the masked ones ({}) from \"{}\"",
                              file, pg::k_redacted_password, copy.string()));
    }
    return copy;
}

} // namespace pglab::lab::run
