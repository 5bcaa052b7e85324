# OpenBench workers build an engine with `make CXX=<compiler> EXE=<name> -j<N>` in this folder
# (OpenBench Client/utils.py make_command) and then run `./<name> bench`. This builds the release
# preset's engine alone (STK_ENGINE_ONLY: no harness dependencies needed) in build/openbench and
# copies it to EXE. `make` alone builds build/openbench/engine/stk and copies it to ./stk.
# CXX given on the command line or in the environment is the compiler (-DCMAKE_CXX_COMPILER);
# EVALFILE is accepted and ignored (stk plays with its classical evaluation unless told a net).
# The release preset probes the build machine: AVX2/BMI2 when it has them, portable otherwise.

EXE ?= stk
BUILD_DIR := build/openbench
# -jN as make received it, else 2.
JOBS := $(or $(patsubst -j%,%,$(filter -j%,$(MAKEFLAGS))),2)
COMPILER := $(if $(filter default,$(origin CXX)),,-DCMAKE_CXX_COMPILER=$(CXX))
# The preset's generator (Ninja) when it is installed, else Unix Makefiles.
GENERATOR := $(if $(shell command -v ninja 2>/dev/null),,-G "Unix Makefiles")

.PHONY: all clean
all:
	cmake --preset release -B $(BUILD_DIR) $(GENERATOR) -DSTK_ENGINE_ONLY=ON $(COMPILER) >/dev/null
	cmake --build $(BUILD_DIR) --target stk -j $(JOBS)
	cp $(BUILD_DIR)/engine/stk $(EXE)

clean:
	rm -rf $(BUILD_DIR)
