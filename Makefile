# The two commands of the README: `make demo` and `make test`. Both install what they need
# (scripts/bootstrap), build, and run.
BUILD_DIR ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

SANITIZE_DIR ?= build-sanitize
FUZZ_SECONDS ?= 60

.PHONY: all bootstrap configure build pglab install releases references test test-references unit demo \
	bench compare \
	lab-overhead studies-quick soak \
	sanitize-build sanitize fuzz-run fuzz-quick format check-format clean

all: build

bootstrap:
	scripts/bootstrap

# Ninja when it is installed (scripts/bootstrap installs it): a cold build of everything took
# 287 s with Ninja and 306 s with Makefiles side by side on 2 cores (bench/NOTEBOOK.md), and
# Ninja's log times each file (bench/compile-time). A build directory keeps its generator.
GENERATOR = $(if $(shell command -v ninja),Ninja,Unix Makefiles)
generator_flag = $(if $(wildcard $(1)/CMakeCache.txt),,-G "$(GENERATOR)")

configure:
	cmake -S . -B $(BUILD_DIR) $(call generator_flag,$(BUILD_DIR)) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		$(CMAKE_FLAGS)

build: configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

# Release binaries of PostgreSQL 12, 16, 17 and 18 in pglab's cache (once per machine), for the
# tests of the version matrix and of the probes on other majors (pg_stat_io 16+, WAL I/O in 18).
releases: pglab
	scripts/fetch-releases $(BUILD_DIR)/pglab

# pgbench 18 built from Debian's source and the upstream TAP files of pgbench 15 and 18, in
# pglab's cache (once per machine), for the tap-* tests (scripts/run-pgbench-tap).
references: pglab
	PGLAB=$(BUILD_DIR)/pglab JOBS=$(JOBS) scripts/build-pgbench-reference

# ctest's jobs: most cases wait, on a server, a child or a benchmark's duration, rather than
# compute, so twice as many as cores (measured on 2 cores, 5 December 2026: the suite took 258 s
# at -j 2 and 176 s at -j 4). A case that must not share the machine so much says so itself
# (PROCESSORS in tests/case-properties.cmake).
TEST_JOBS ?= $(shell echo $$(( $(JOBS) * 2 )))

# Every GoogleTest case is a CTest test; the JUnit file lets .ci/run see what was skipped. Each
# phase is timed (scripts/phase-time) and the phases are printed at the end, passed or failed
# (scripts/phase-report), so that a slower phase shows in every log.
ABS_BUILD_DIR = $(abspath $(BUILD_DIR))
PHASES = $(ABS_BUILD_DIR)/make-test-phases.tsv
test:
	@rm -f $(PHASES); trap 'scripts/phase-report $(PHASES) $(ABS_BUILD_DIR)' EXIT; set -e; \
	scripts/phase-time $(PHASES) packages scripts/bootstrap; \
	scripts/phase-time $(PHASES) configure \
		$(MAKE) --no-print-directory configure CMAKE_FLAGS="-DPGLAB_WARNINGS_AS_ERRORS=ON $(CMAKE_FLAGS)"; \
	scripts/phase-time $(PHASES) compile cmake --build $(BUILD_DIR) -j $(JOBS); \
	scripts/phase-time $(PHASES) "releases and references" \
		sh -c 'scripts/fetch-releases $(BUILD_DIR)/pglab && PGLAB=$(BUILD_DIR)/pglab JOBS=$(JOBS) scripts/build-pgbench-reference'; \
	scripts/phase-time $(PHASES) ctest ctest --test-dir $(BUILD_DIR) --output-on-failure \
		-j $(TEST_JOBS) --timeout 900 -LE reference --output-junit $(ABS_BUILD_DIR)/ctest-results.xml

# What takes minutes once per machine or a download on every run, left out of `make test` for
# its time budget; CI runs it after `make test` (which builds what it needs): the controls of the
# TAP suites (pgbench's own suites against the reference pgbench 15 and 18, which show that the
# set-up is sound when a tap-*-pglab test fails), a fetch of 19 into an empty cache, and a real
# build from source (Debian's postgresql-18, built once per machine into pglab's cache).
test-references: pglab
	PGLAB=$(BUILD_DIR)/pglab JOBS=$(JOBS) scripts/build-pgbench-reference --build-source
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS) --timeout 900 -L reference \
		--output-junit ctest-references.xml

unit: build
	cd $(BUILD_DIR) && ctest --output-on-failure -L unit -j $(JOBS)

DEMO_STAMP := $(shell date +%Y%m%d-%H%M%S)
DEMO_RESULTS ?= results/quickstart-$(DEMO_STAMP)

# The demo needs only the pglab binary, not the test suites.
pglab: configure
	cmake --build $(BUILD_DIR) -j $(JOBS) --target pglab

# pglab and a link named pgbench next to it, under PREFIX (default /usr/local).
PREFIX ?= /usr/local
install: pglab
	cmake --install $(BUILD_DIR) --prefix $(PREFIX)

demo: bootstrap pglab
	$(BUILD_DIR)/pglab run experiments/quickstart.toml --results $(DEMO_RESULTS)
	@echo "results and report: $(DEMO_RESULTS)/ (report.md, report.html)"

compare: bootstrap build
	bench/compare-pgbench $(BUILD_DIR)/pglab

# The sanitizer build (clang, ASan + UBSan, libFuzzer coverage) in its own directory: the unit
# tests and the three fuzzers (fuzz/: the script language, experiment files, damaged stored
# results). Each file compiled alone, without precompiled headers: this also checks that every
# file includes what it uses.
sanitize-build:
	cmake -S . -B $(SANITIZE_DIR) $(call generator_flag,$(SANITIZE_DIR)) -DCMAKE_CXX_COMPILER=clang++ \
		-DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DPGLAB_SANITIZE=fuzzer -DPGLAB_BUILD_BENCH=OFF -DPGLAB_PCH=OFF -DPGLAB_UNITY_TESTS=OFF
	cmake --build $(SANITIZE_DIR) -j $(JOBS) --target pglab_unit_tests pglab_script_fuzz \
		pglab_spec_fuzz pglab_results_fuzz

# ASan's instrumented frames take about three times the stack of the plain build: the deepest
# expressions pgbench accepts (bison's 10000 levels) need more than the default 8 MB.
SANITIZE_STACK := ulimit -s 65536;

# Each fuzzer for FUZZ_SECONDS. A finding is written to $(SANITIZE_DIR)/<fuzzer>-crash-* (or
# leak-*, timeout-*) and the run fails: keep it as a regression file under
# tests/golden/script/fuzz/, tests/golden/lab/experiment-fuzz/ or tests/golden/lab/results-fuzz/
# and fix what it shows. The results fuzzer's inputs choose a damage to a fixture of tests/golden
# (fuzz/results_fuzz_harness.hpp); -max_len keeps them to that and a payload.
fuzz-run:
	mkdir -p $(SANITIZE_DIR)/corpus-script $(SANITIZE_DIR)/corpus-spec $(SANITIZE_DIR)/corpus-results
	$(SANITIZE_STACK) $(SANITIZE_DIR)/fuzz/pglab_script_fuzz -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 -dict=fuzz/script.dict \
		-artifact_prefix=$(SANITIZE_DIR)/script- $(SANITIZE_DIR)/corpus-script fuzz/corpus \
		tests/golden/script/fuzz
	$(SANITIZE_STACK) $(SANITIZE_DIR)/fuzz/pglab_spec_fuzz -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 -dict=fuzz/spec.dict \
		-artifact_prefix=$(SANITIZE_DIR)/spec- $(SANITIZE_DIR)/corpus-spec experiments \
		tests/golden/lab/experiment-fuzz
	$(SANITIZE_STACK) $(SANITIZE_DIR)/fuzz/pglab_results_fuzz -max_total_time=$(FUZZ_SECONDS) -timeout=30 \
		-rss_limit_mb=2048 -print_final_stats=1 -max_len=72 \
		-artifact_prefix=$(SANITIZE_DIR)/results- $(SANITIZE_DIR)/corpus-results \
		fuzz/results-corpus tests/golden/lab/results-fuzz

fuzz-quick: bootstrap sanitize-build
	$(MAKE) fuzz-run

# What CI runs after `make test`: the unit tests once under ASan + UBSan, each fuzzer 30 s.
sanitize: bootstrap sanitize-build
	$(SANITIZE_STACK) cd $(SANITIZE_DIR) && ctest --output-on-failure -L unit -j $(JOBS)
	$(MAKE) fuzz-run FUZZ_SECONDS=30

# The soak that looks for the next race (bench/soak): MINUTES of ctest rounds over the server,
# lab, fleet and compat cases under a fixed stress-ng load; SOAK_FLAGS adds --cases FILE,
# --json FILE...
MINUTES ?= 30
SOAK_FLAGS ?=
soak:
	@bench/soak --check --minutes $(MINUTES) $(SOAK_FLAGS)
	$(MAKE) --no-print-directory bootstrap build
	bench/soak --minutes $(MINUTES) --build $(BUILD_DIR) $(SOAK_FLAGS)

lab-overhead: pglab
	bench/lab-overhead $(BUILD_DIR)/pglab

# The quick forms of S1a and S4 end to end (run, report, the answer first, the counts that must
# agree): about 2 minutes here. STUDIES=all for every study with a quick form.
studies-quick: pglab
	scripts/studies-quick $(BUILD_DIR)/pglab

format:
	clang-format -i $$(git ls-files '*.cpp' '*.hpp')

check-format:
	clang-format --dry-run --Werror $$(git ls-files '*.cpp' '*.hpp')

clean:
	rm -rf $(BUILD_DIR) $(SANITIZE_DIR)
