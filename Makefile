# KernelArena: `make demo` and `make test` do all set-up on a fresh Debian/Ubuntu machine.
JOBS ?= $(shell nproc)
BUILD ?= build
BUILD_SAN ?= build-asan

.PHONY: all setup build demo test test-fast test-asan test-gpu clean format tidy

all: build

setup: .setup.stamp
.setup.stamp: scripts/setup.sh
	@bash scripts/setup.sh
	@touch $@

$(BUILD)/Makefile: CMakeLists.txt tests/CMakeLists.txt | .setup.stamp
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo

build: .setup.stamp $(BUILD)/Makefile
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	@bash scripts/demo.sh $(BUILD)

# Every test, in the normal build and again under AddressSanitizer/UBSan (at -O1, which the
# sanitizers' documentation advises for a usable speed). The second pass reuses the first's
# compile cache and leaves out the generalization label: the trap kernels go through the judge
# paths the integration tests take, and CI's 90 minutes did not hold both. GPU tests (label gpu)
# skip, saying so, where no GPU is visible; `make test-gpu` runs only them.
test: test-fast test-asan

test-fast: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

test-asan: .setup.stamp
	cmake -S . -B $(BUILD_SAN) -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-g -O1" \
	  -DARENA_SANITIZE=ON -DARENA_TEST_CACHE_DIR=$(CURDIR)/$(BUILD)/test-cache
	cmake --build $(BUILD_SAN) -j $(JOBS)
	cd $(BUILD_SAN) && ctest --output-on-failure -j $(JOBS) -LE generalization

test-gpu: build
	cd $(BUILD) && ctest --output-on-failure -L gpu

format:
	clang-format -i $$(git ls-files 'src/*.cpp' 'src/*.hpp' 'tests/*.cpp' 'tests/*.hpp')

tidy: build
	clang-tidy -p $(BUILD) $$(git ls-files 'src/*.cpp')

clean:
	rm -rf $(BUILD) $(BUILD_SAN) .setup.stamp
