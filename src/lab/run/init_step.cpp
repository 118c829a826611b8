// lab/run: the `init` step.
#include "init/initialize.hpp"
#include "lab/run/captured_output.hpp"
#include "lab/run/step_kinds.hpp"
#include "lab/run/step_options.hpp"

namespace pglab::lab::run {

StepOutcome run_init(const experiment::Step& step, StepContext& ctx) {
    StepOutcome out;
    auto& record = out.details.emplace<store::InitStep>();
    auto options = options_or_fail(step, ctx, out, record);
    if (!options) {
        return out;
    }
    Status st;
    {
        CaptureOutput capture(ctx.log);
        st = init::initialize(std::move(options->parsed.init));
    }
    out.wrote_log = true;
    record.exit_status = st ? 0 : 1;
    if (!st) {
        out.fail(error_text(st.error()));
    }
    return out;
}

} // namespace pglab::lab::run
