// bring_answer: the report's files through write_report, the claims' verdicts from the report it
// built (the same evaluation as its Answer table).
#include "cli/run_answer.hpp"

#include "cli/report_writer.hpp"
#include "lab/report/claim_words.hpp"
#include "lab/report/claims.hpp"

#include <cstdio>
#include <string>

namespace pglab::cli {

Status bring_answer(const std::filesystem::path& results_dir) {
    ReportRequest request;
    request.dir = results_dir;
    PGLAB_TRY_ASSIGN(const lab::report::Report report, write_report(std::move(request)));
    if (report.claims.empty()) {
        return {};
    }
    if (!report.question.empty()) {
        std::printf("answer: %s\n", report.question.c_str());
    }
    for (const lab::report::ClaimResult& r : report.claims) {
        // The figure and its interval, and the look it was read at; an untested claim says why.
        std::string figure = r.measured.empty() ? r.why : r.measured;
        if (const std::string look = lab::report::look_summary(r.judgement); !look.empty()) {
            figure += "; " + look;
        }
        std::printf("  %s: %s: %s\n", lab::report::verdict_name(r.judgement.verdict),
                    r.claim.text.c_str(), figure.c_str());
    }
    std::printf("report: %s\n", (results_dir / "report.md").string().c_str());
    std::fflush(stdout);
    return {};
}

} // namespace pglab::cli
