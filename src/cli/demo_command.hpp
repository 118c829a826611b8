// `pglab demo`: a throwaway server, `bench -i`, a short run, the report, cleanup.
#pragma once

namespace pglab::cli {

int demo_command(int argc, char** argv);

} // namespace pglab::cli
