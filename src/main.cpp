// pglab's entry point: everything happens in cli::run.
#include "cli/run.hpp"

int main(int argc, char** argv) {
    return pglab::cli::run(argc, argv);
}
