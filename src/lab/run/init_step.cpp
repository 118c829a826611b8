// lab/run: the `init` step.
#include "init/initialize.hpp"
#include "lab/run/captured_output.hpp"
#include "lab/run/step_kinds.hpp"
#include "lab/run/step_options.hpp"

namespace pglab::lab::run {

StepOutcome run_init(const experiment::Step& step, StepContext& ctx) {
    StepOutcome out;
    auto options = options_or_fail<store::InitStep>(step, ctx, out);
    if (!options) {
        return out;
    }
    Status st;
    {
        CaptureOutput capture(ctx.log);
        st = init::initialize(std::move(options->parsed.init));
    }
    out.wrote_log = true;
    std::get<store::InitStep>(out.details).exit_status = st ? 0 : 1;
    if (!st) {
        out.fail(error_text(st.error()));
    }
    return out;
}

} // namespace pglab::lab::run
