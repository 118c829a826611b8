# The two commands of the README: `make demo` and `make test`. Both install what they need
# (scripts/bootstrap), build, and run.
BUILD_DIR ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: all bootstrap configure build pglab test unit demo bench compare fuzz-quick format check-format clean

all: build

bootstrap:
	scripts/bootstrap

configure:
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS)

build: configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

test: bootstrap
	$(MAKE) build CMAKE_FLAGS="-DPGLAB_WARNINGS_AS_ERRORS=ON $(CMAKE_FLAGS)"
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS) --timeout 900

unit: build
	cd $(BUILD_DIR) && ctest --output-on-failure -L unit -j $(JOBS)

DEMO_STAMP := $(shell date +%Y%m%d-%H%M%S)
DEMO_RESULTS ?= results/quickstart-$(DEMO_STAMP)

# The demo needs only the pglab binary, not the test suites.
pglab: configure
	cmake --build $(BUILD_DIR) -j $(JOBS) --target pglab

demo: bootstrap pglab
	$(BUILD_DIR)/pglab run experiments/quickstart.toml --results $(DEMO_RESULTS)
	$(BUILD_DIR)/pglab report $(DEMO_RESULTS)
	@echo "results and report: $(DEMO_RESULTS)/ (report.md, report.html)"

compare: bootstrap build
	bench/compare-pgbench $(BUILD_DIR)/pglab

# The script fuzzer (fuzz/) for 60 s: clang, libFuzzer + ASan + UBSan, in its own build dir.
# A finding is written to build-fuzz/crash-* (or leak-*, timeout-*); keep it as a regression file
# under tests/golden/script/fuzz/.
fuzz-quick:
	cmake -S . -B build-fuzz -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DPGLAB_SANITIZE=fuzzer -DPGLAB_BUILD_TESTS=OFF -DPGLAB_BUILD_BENCH=OFF
	cmake --build build-fuzz -j $(JOBS) --target pglab_script_fuzz
	mkdir -p build-fuzz/corpus
	build-fuzz/fuzz/pglab_script_fuzz -max_total_time=60 -timeout=10 -rss_limit_mb=2048 \
		-dict=fuzz/script.dict -artifact_prefix=build-fuzz/ build-fuzz/corpus fuzz/corpus \
		tests/golden/script/fuzz

format:
	clang-format -i $$(git ls-files '*.cpp' '*.hpp')

check-format:
	clang-format --dry-run --Werror $$(git ls-files '*.cpp' '*.hpp')

clean:
	rm -rf $(BUILD_DIR)
