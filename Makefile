# High-order FDTD stencil benchmark suite.
#   make            build build/fdtdbench (the GPU backend too where the CUDA toolkit is: nvcc on the PATH)
#   make bench      CPU (and GPU, when there is one) tables beside the paper's, then plots
#   make test       every test; GPU tests run only where a GPU is present (ONLY="test_gpu test_cache.sh": those;
#                   TEST_JOBS=1: one test at a time, not two)
#   make tune       launch tuning: the CPU's tile and nodes along z per variant (Hx, f32, arrays at 300^3
#                   and in cache, uniform) and its temporally blocked step's steps per pass, then where a GPU is usable every GPU kernel variant (f32 at 512^3, Hx at
#                   the paper's 300^3, then the Hx rows bench takes in f64 (at both) and with uniform
#                   coefficients), then the fused step
#   make plots      gnuplot figures from results/ (installs gnuplot-nox as root with apt-get);
#                   results/README.md is written by make bench or fdtdbench report
#   make peers      openEMS, Meep and gprMax beside the suite's Yee full step (scripts/peers.sh)
#   make kernel SCHEME=fv24 COMPONENT=hx [DEVICE=cpu|gpu] [VARIANT=v] [PRECISION=f32] [COEF=array]
#   make fuzz       libFuzzer on the spec parser, the spec embedding and the CLI's size parser (clang), FUZZ_SECONDS each
#   make cputime    build/cputime: one CPU kernel timed by its thread's CPU time (make rebuilds it once built)
# Variables: BUILD (build folder), CFLAGS, KERNEL_OPT (more flags for the CPU kernels only),
# SAN=address,undefined (sanitized build),
# CUDA (the toolkit's folder; empty to build without the GPU backend).

BUILD     ?= build
# Every core unless -j was given: the quick start (make bench, make test) runs without -j. A
# sub-make (bench's plots) shares its parent's jobs rather than forcing its own.
ifeq ($(MAKELEVEL)$(filter -j%,$(MAKEFLAGS)),0)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 1)
endif
CC        ?= cc
CFLAGS    ?= -O3 -march=native
SAN       ?=
SANFLAGS  := $(if $(SAN),-fsanitize=$(SAN) -fno-omit-frame-pointer -fno-sanitize-recover=all,)
# The flow, a folder each: stencils (specs, parser) -> analysis (design, dispersion, cost) ->
# codegen (generator, kernel interface) -> kernels_cpu, kernels_gpu (templates, backends) ->
# engine (reference, step engine) -> harness (measurement, metrics, results) -> report -> cli.
SRC_DIRS  := stencils analysis codegen kernels_cpu kernels_gpu engine harness report cli
INCLUDES  := $(addprefix -I,$(SRC_DIRS))
HOST_CFLAGS := -std=c11 -Wall -Wextra -fopenmp $(CFLAGS) $(SANFLAGS)
# What the CPU kernels are compiled with at run time (kernels_cpu/jit.c; build_info.h records it):
# the host's flags, then KERNEL_OPT's (CI's sanitizer stage: -O0, since a kernel with the
# sanitizers takes 7x as long to compile at -O1 and CI compiles 420 of them).
KERNEL_OPT ?=
KERNEL_CFLAGS := $(HOST_CFLAGS) $(KERNEL_OPT)
ALLCFLAGS := $(HOST_CFLAGS) $(INCLUDES) -MMD -MP
LDLIBS    := -lm

# The CUDA toolkit, found by nvcc on the PATH (NVCC= or CUDA= builds without it). Only its headers
# and libraries are used: the GPU kernels are compiled at run time by NVRTC for the GPU in hand
# (kernels_gpu/rtc.c), so the build is plain C.
NVCC      ?= $(shell command -v nvcc 2>/dev/null)
CUDA      ?= $(if $(NVCC),$(patsubst %/bin/,%,$(dir $(realpath $(NVCC)))))
CUDA_LIB  := $(CUDA)/lib64
CUDAFLAGS := -I$(CUDA)/include -DCUDA_INCLUDE='"$(CUDA)/include"'

# Every spec file is a scheme (the one with a 'reference' line is what ratios divide by).
SPECS     := $(sort $(wildcard stencils/*.stencil))
GEN       := $(BUILD)/gen
LIB_C     := $(filter-out codegen/% %/fuzz_spec.c %/fuzz_cli.c cli/main.c kernels_gpu/%,\
                 $(foreach d,$(SRC_DIRS),$(wildcard $(d)/*.c))) codegen/emit.c codegen/kcache.c
# Kernel variants: one template each (kernels_cpu/<variant>.c.in, kernels_gpu/<variant>.cu.in, and
# the step engine's fused half-step variants <variant>.c.step, <variant>.cu.step), and one CPML
# layer template per device (<name>.c.layer, .cu.layer; codegen/layer.h). No kernel is compiled
# here: the templates are embedded in the binary with the headers their kernels include, and each
# kernel is filled and compiled when a command first needs it, for the machine in hand (the CPU's
# by this build's compiler and flags: kernels_cpu/jit.c; the GPU's by NVRTC: kernels_gpu/launch.c).
# The build writes each device's tables of launchers, filling every kernel once to check them.
CPU_TEMPLATES := $(sort $(wildcard kernels_cpu/*.c.in kernels_cpu/*.c.step))
GPU_TEMPLATES := $(sort $(wildcard kernels_gpu/*.cu.in kernels_gpu/*.cu.step))
CPU_LAYER_TEMPLATE := kernels_cpu/cpml.c.layer
GPU_LAYER_TEMPLATE := kernels_gpu/cpml.cu.layer
variant_of = $(basename $(basename $(notdir $(1))))
KERNEL_HEADERS := codegen/kernel.h codegen/layer.h stencils/spec.h engine/halo_rule.h
CPU_HEADERS := $(filter-out kernels_cpu/jit.h,$(wildcard kernels_cpu/*.h)) $(KERNEL_HEADERS)
GPU_HEADERS := $(wildcard kernels_gpu/*.cuh) kernels_gpu/gpu_rules.h $(KERNEL_HEADERS)
CPU_OBJ   := $(addprefix $(GEN)/,cpu_table.o cpu_layer_table.o cpu_templates.o cpu_headers.o)
LIB_OBJ   := $(LIB_C:%.c=$(BUILD)/%.o) $(CPU_OBJ) $(GEN)/builtin_specs.o
# NCCL (the halo exchange of step --gpus): NCCL_HOME names an installation of its own (include/
# and lib/, e.g. pip's nvidia-nccl-cu13 under site-packages/nvidia/nccl), else the toolkit's headers
# or the system's. Its library is loaded at run time (kernels_gpu/nccl_transport.c), from
# NCCL_HOME's lib/ where that has one, so the binary runs where NCCL is missing.
NCCL_DIRS := $(strip $(if $(NCCL_HOME),$(NCCL_HOME)/include) $(CUDA)/include /usr/include)
NCCL_H    := $(if $(CUDA),$(firstword $(wildcard $(addsuffix /nccl.h,$(NCCL_DIRS)))))
NCCL_LIB  := $(firstword $(wildcard $(if $(NCCL_HOME),$(NCCL_HOME)/lib/libnccl.so.2)) libnccl.so.2)
NCCL_FLAGS := $(filter-out -I/usr/include/,-I$(dir $(NCCL_H))) -DNCCL_LIBRARY='"$(NCCL_LIB)"'
NCCL_NOTE := NCCL: $(if $(NCCL_H),$(NCCL_H): step --gpus exchanges halos through it,$(if $(CUDA),no nccl.h in \
                 $(NCCL_DIRS) (NCCL_HOME=DIR names another),a build without CUDA): step --gpus is not built)
ifneq ($(CUDA),)
GPU_OBJ   := $(patsubst %.c,$(BUILD)/%.o,$(filter-out kernels_gpu/without_cuda.c kernels_gpu/without_nccl.c \
                 $(if $(NCCL_H),,kernels_gpu/nccl_transport.c),$(wildcard kernels_gpu/*.c))) \
             $(if $(NCCL_H),,$(BUILD)/kernels_gpu/without_nccl.o) \
             $(addprefix $(GEN)/,gpu_table.o gpu_layer_table.o gpu_templates.o gpu_headers.o gpu_support.o)
GPU_LIBS  := -L$(CUDA_LIB) -Wl,-rpath,$(CUDA_LIB) -lnvrtc -lcudart_static -ldl -lrt -lpthread
else
GPU_OBJ   := $(BUILD)/kernels_gpu/without_cuda.o $(BUILD)/kernels_gpu/without_nccl.o
GPU_LIBS  :=
endif
TESTS     := $(patsubst tests/%.c,$(BUILD)/tests/%,$(filter-out tests/check.c,$(wildcard tests/test_*.c)))

.PHONY: all bench test tune plots kernel fuzz clean peers cputime
# A build/cputime already there is rebuilt too: it links the generator and the templates, so an
# old one times the old kernels (an A/B on 2026-12-06 compared a kernel with itself that way).
all: $(BUILD)/fdtdbench $(if $(wildcard $(BUILD)/cputime),$(BUILD)/cputime)

$(BUILD)/fdtdbench: $(BUILD)/cli/main.o $(BUILD)/libfdtd.a
	$(CC) $(ALLCFLAGS) -o $@ $^ $(GPU_LIBS) $(LDLIBS)
	$(if $(NCCL_H),,@echo "$(NCCL_NOTE)")

$(BUILD)/libfdtd.a: $(LIB_OBJ) $(GPU_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) -I$(GEN) -c -o $@ $<

$(GEN)/%.o: $(GEN)/%.c
	$(CC) $(ALLCFLAGS) -c -o $@ $<

$(BUILD)/kernels_gpu/%.o: kernels_gpu/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) $(if $(filter-out without_cuda without_nccl,$*),$(CUDAFLAGS)) \
	    $(if $(filter nccl_transport,$*),$(NCCL_FLAGS)) -c -o $@ $<

# The generator runs on the build machine; it shares the parser with the suite.
# design.c too: a spec whose weights cannot be designed fails the build, naming the file.
GEN_SRC   := codegen/generate.c codegen/emit.c stencils/spec.c analysis/design.c codegen/embed.c
$(GEN)/generate: $(GEN_SRC) stencils/spec.h analysis/design.h codegen/embed.h codegen/emit.h
	@mkdir -p $(GEN)
	$(CC) -std=c11 -Wall -Wextra $(filter -Werror,$(CFLAGS)) -O1 $(SANFLAGS) -Istencils -Ianalysis -Icodegen -o $@ $(GEN_SRC) -lm

$(GEN)/cpu_table.c: $(CPU_TEMPLATES) $(GEN)/generate $(SPECS)
	$(GEN)/generate table cpu $@ $(CPU_TEMPLATES) $(SPECS)

$(GEN)/cpu_layer_table.c: $(CPU_LAYER_TEMPLATE) $(GEN)/generate $(SPECS)
	$(GEN)/generate layertable $< $@ $(SPECS)

$(GEN)/gpu_table.c: $(GPU_TEMPLATES) $(GEN)/generate $(SPECS)
	$(GEN)/generate table gpu $@ $(GPU_TEMPLATES) $(SPECS)

$(GEN)/gpu_layer_table.c: $(GPU_LAYER_TEMPLATE) $(GEN)/generate $(SPECS)
	$(GEN)/generate layertable $< $@ $(SPECS)

$(GEN)/cpu_templates.c: $(CPU_TEMPLATES) $(CPU_LAYER_TEMPLATE) $(GEN)/generate
	$(GEN)/generate embed $@ cpu_template $(CPU_TEMPLATES) $(CPU_LAYER_TEMPLATE)

$(GEN)/cpu_headers.c: $(CPU_HEADERS) $(GEN)/generate
	$(GEN)/generate embed $@ cpu_header $(CPU_HEADERS)

$(GEN)/gpu_templates.c: $(GPU_TEMPLATES) $(GPU_LAYER_TEMPLATE) $(GEN)/generate
	$(GEN)/generate embed $@ gpu_template $(GPU_TEMPLATES) $(GPU_LAYER_TEMPLATE)

$(GEN)/gpu_headers.c: $(GPU_HEADERS) $(GEN)/generate
	$(GEN)/generate embed $@ gpu_header $(GPU_HEADERS)

$(GEN)/gpu_support.c: kernels_gpu/support.cu $(GEN)/generate
	$(GEN)/generate embed $@ gpu_support kernels_gpu/support.cu

$(GEN)/builtin_specs.c: $(GEN)/generate $(SPECS) Makefile
	$(GEN)/generate sources $@ $(SPECS)

# What every CSV row records of the build: commit (+dirty if the tree differs), compiler, flags;
# and how the CPU kernels are compiled at run time: the compiler (its path) and every flag.
# SOURCE_COMMIT names the commit where git cannot: a working tree copied without its history, as
# the lent GPU machine's is (its git describes the session's first commit); e.g.
# SOURCE_COMMIT=$(git rev-parse --short=12 HEAD) in the device call's command. Anything but a
# commit id (7 to 40 hex digits) stops the build: every row it wrote would name a commit that is none.
ifneq ($(SOURCE_COMMIT),)
ifneq ($(shell printf '%s' '$(SOURCE_COMMIT)' | grep -Ex '[0-9a-f]{7,40}'),$(SOURCE_COMMIT))
$(error SOURCE_COMMIT=$(SOURCE_COMMIT) is not a commit id (7 to 40 hex digits: git rev-parse --short=12 HEAD))
endif
endif
$(GEN)/build_info.h: FORCE
	@mkdir -p $(GEN)
	@{ printf '#define BUILD_COMMIT "%s"\n' "$(if $(SOURCE_COMMIT),$(SOURCE_COMMIT),$$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$$(git diff --quiet HEAD -- 2>/dev/null || echo +dirty))"; \
	   printf '#define BUILD_COMPILER "%s"\n' "$$($(CC) --version | head -n 1)"; \
	   printf '#define BUILD_CFLAGS "%s"\n' "$(CFLAGS)"; \
	   printf '#define BUILD_KERNEL_CC "%s"\n' "$$(command -v $(firstword $(CC)))$(if $(word 2,$(CC)), $(wordlist 2,$(words $(CC)),$(CC)))"; \
	   printf '#define BUILD_KERNEL_CFLAGS "%s"\n' "$(KERNEL_CFLAGS)"; } > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@
$(BUILD)/harness/metrics.o $(BUILD)/harness/step_measure.o $(BUILD)/kernels_cpu/jit.o: $(GEN)/build_info.h
.PHONY: FORCE
FORCE:

# ---- tests ------------------------------------------------------------------------
$(BUILD)/tests/%: tests/%.c tests/check.h $(BUILD)/libfdtd.a
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) -Itests -o $@ $< $(BUILD)/libfdtd.a $(GPU_LIBS) $(LDLIBS)

# With the CUDA toolkit the GPU backend is built, GPU or not: the tests compile GPU kernels with
# NVRTC here too, and the tests that run them skip, saying why, where no GPU is usable. The no-CUDA
# stand-in (kernels_gpu/without_cuda.c) is compiled too, though not linked.
test: $(BUILD)/fdtdbench $(TESTS) $(if $(CUDA),$(BUILD)/kernels_gpu/without_cuda.o) $(if $(NCCL_H),$(BUILD)/kernels_gpu/without_nccl.o)
	@echo "CUDA: $(if $(CUDA),toolkit $(CUDA): GPU kernels compiled at run time by NVRTC,not found (no nvcc on the PATH): GPU backend built as a stub)"
	@echo "$(NCCL_NOTE)"
	@BUILD=$(BUILD) SAN=$(SAN) sh tests/run.sh

# ---- main jobs ---------------------------------------------------------------------
# bench measures and writes its CSV and page, plots draws, report writes results/README.md
# (which links the figures, so it comes last).
bench: $(BUILD)/fdtdbench
	$(BUILD)/fdtdbench bench
	@$(MAKE) --no-print-directory plots
	$(BUILD)/fdtdbench report

# openEMS, Meep and gprMax beside the suite's Yee full step: PEERS_ARGS="--grid 300 --threads 2 --steps 100"
peers: $(BUILD)/fdtdbench
	sh scripts/peers.sh --fdtdbench $(BUILD)/fdtdbench $(PEERS_ARGS)

# The CPU's tiles and nodes along z (Hx: f32 arrays and uniform, the rows bench times in every
# variant), then the GPU's launches where a GPU is usable (where not, those lines only say so):
# 512^3 for every table, and the paper's 300^3 too for f32 and f64, whose components' rows there
# take Hx's line (the best shape differs: f64 at 300^3 with 512^3's launches 78.8-91.6% of the probe,
# with its own 93.0-101.7%; H100, 2026-12-06).
TUNE_GPU = $(if $(shell $(BUILD)/fdtdbench probe --device gpu >/dev/null 2>&1 && echo yes),,@echo no usable GPU, skipped: )
# The CPU's launches also at a grid that stays in cache, which the in-cache table's rows take (the
# nearest grid's line): there regza and regz ran four nodes along z 1.3-1.4x faster than one, the
# launch 300^3 picks (AVX-512 EPYC VM, 2026-12-06; docs/performance-notes.md). A few seconds.
CPU_INCACHE_GRID := 128x15x15
# Table 5's one-thread rows (the paper's protocol) and the in-cache table's take a tuned file of
# their own (one thread: the tuned file is per thread count): at the declared four nodes along z
# regz's one-thread rows at 300^3 ran 1.1-1.8x slower than at the one node (two for Yee) a tune
# at one thread picks (AVX-512 EPYC VM, 2026-12-06; docs/performance-notes.md). About a minute.
CPU_INCACHE_GRID_1T := 128x9x9
tune: $(BUILD)/fdtdbench
	$(BUILD)/fdtdbench tune --device cpu $(if $(FORCE),--force,)
	$(BUILD)/fdtdbench tune --device cpu --grid $(CPU_INCACHE_GRID) $(if $(FORCE),--force,)
	$(BUILD)/fdtdbench tune --device cpu --threads 1 $(if $(FORCE),--force,)
	$(BUILD)/fdtdbench tune --device cpu --threads 1 --grid $(CPU_INCACHE_GRID_1T) $(if $(FORCE),--force,)
	$(BUILD)/fdtdbench tune --device cpu --coef uniform $(if $(FORCE),--force,)
	$(BUILD)/fdtdbench tune --device cpu --step $(if $(FORCE),--force,)
	$(TUNE_GPU)$(BUILD)/fdtdbench tune $(if $(FORCE),--force,)
	$(TUNE_GPU)$(BUILD)/fdtdbench tune --component hx --grid 300 $(if $(FORCE),--force,)
	$(TUNE_GPU)$(BUILD)/fdtdbench tune --component hx --precision f64 $(if $(FORCE),--force,)
	$(TUNE_GPU)$(BUILD)/fdtdbench tune --component hx --precision f64 --grid 300 $(if $(FORCE),--force,)
	$(TUNE_GPU)$(BUILD)/fdtdbench tune --component hx --coef uniform $(if $(FORCE),--force,)
	$(TUNE_GPU)$(BUILD)/fdtdbench tune --step $(if $(FORCE),--force,)

plots: $(BUILD)/fdtdbench
	@sh plots/need_gnuplot.sh $(BUILD)/apt-gnuplot.log
	@sh plots/render.sh $(BUILD)

DEVICE    ?= cpu
PRECISION ?= f32
COEF      ?= array
VARIANT   ?= $(if $(filter gpu,$(DEVICE)),baseline,plain)
KERNEL_TEMPLATE = $(if $(filter gpu,$(DEVICE)),kernels_gpu/$(VARIANT).cu.in,kernels_cpu/$(VARIANT).c.in)
# One kernel as a translation unit of its own, headed by its counts: it compiles with
# `cc -c -Istencils -Ikernels_cpu` (CPU) or `nvcc -c -Istencils -Icodegen -Iengine -Ikernels_gpu`
# (GPU: at the header's default launch; fdtdbench compiles each launch's with NVRTC).
kernel: $(GEN)/generate
	@test -n "$(SCHEME)" || { echo "make kernel: give SCHEME=name (one of: $(notdir $(basename $(SPECS))))"; exit 2; }
	@test -f "$(KERNEL_TEMPLATE)" || { echo "make kernel: no variant '$(VARIANT)' for DEVICE=$(DEVICE) (one of: $(call variant_of,$(filter %.in,$(if $(filter gpu,$(DEVICE)),$(GPU_TEMPLATES),$(CPU_TEMPLATES))))))"; exit 2; }
	@$(GEN)/generate one $(KERNEL_TEMPLATE) $(SCHEME) $(or $(COMPONENT),hx) $(PRECISION) $(COEF) $(SPECS)

# Thread-CPU-time of one CPU kernel (scripts/cputime.c): timings that hold on a busy machine.
cputime: $(BUILD)/cputime
$(BUILD)/cputime: scripts/cputime.c $(BUILD)/libfdtd.a
	$(CC) $(ALLCFLAGS) -o $@ $< $(BUILD)/libfdtd.a $(GPU_LIBS) $(LDLIBS)

FUZZ_SECONDS ?= 60
FUZZFLAGS := -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined $(INCLUDES)
# Each fuzzer's sources, and its longest input, corpus folder and seeds. They run side by side
# (make's -j: every core), each for FUZZ_SECONDS.
FUZZERS        := spec cli embed
FUZZ_spec_SRC  := stencils/fuzz_spec.c stencils/spec.c
FUZZ_spec_RUN  := -max_len=2048 $(BUILD)/fuzz/corpus tests/fuzz_corpus
FUZZ_cli_SRC   := cli/fuzz_cli.c cli/cli.c stencils/spec.c
FUZZ_cli_RUN   := -max_len=64 $(BUILD)/fuzz/cli_corpus tests/fuzz_cli_corpus
FUZZ_embed_SRC := codegen/fuzz_embed.c codegen/embed.c
FUZZ_embed_RUN := -max_len=2048 $(BUILD)/fuzz/embed_corpus tests/fuzz_corpus
.PHONY: $(FUZZERS:%=fuzz-%)
fuzz: $(FUZZERS:%=fuzz-%)
# New inputs go to the build folder; copy a crashing one into tests/fuzz_corpus as a regression test.
$(FUZZERS:%=fuzz-%): fuzz-%:
	@mkdir -p $(word 2,$(FUZZ_$*_RUN))
	clang $(FUZZFLAGS) -o $(BUILD)/fuzz/fuzz_$* $(FUZZ_$*_SRC) -lm
	$(BUILD)/fuzz/fuzz_$* -max_total_time=$(FUZZ_SECONDS) -artifact_prefix=$(BUILD)/fuzz/ $(FUZZ_$*_RUN)

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
