# The two commands of the README: `make demo` and `make test`. Both install what they need
# (scripts/bootstrap), build, and run.
BUILD_DIR ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: all bootstrap configure build test unit demo bench compare fuzz-quick format check-format clean

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

demo: bootstrap build
	$(BUILD_DIR)/pglab demo

compare: bootstrap build
	bench/compare-pgbench $(BUILD_DIR)/pglab

format:
	clang-format -i $$(git ls-files '*.cpp' '*.hpp')

check-format:
	clang-format --dry-run --Werror $$(git ls-files '*.cpp' '*.hpp')

clean:
	rm -rf $(BUILD_DIR)
