# Makefile: builds hangar-policy (the whole command) and hangar-policy-runtime
# (the runtime alone), runs the tests, installs. Sources are found by directory:
# adding a .c file to a folder of runtime/ (runtime/PART/ or
# runtime/PART/SUB/) or to compiler/ adds it to that library, and adding
# tests/unit/test_NAME.c adds a unit test. Generated sources live in build/.

ifeq ($(wildcard config.mk),)
$(error config.mk is missing: run ./configure first)
endif
include config.mk

B := build
G := $(B)/gen

WARN := -std=c11 -Wall -Wextra -Werror -Wpedantic $(EXTRA_CFLAGS)
CPPFLAGS_ALL := -D_GNU_SOURCE -I. -Iruntime -Icompiler -I$(G)
CFLAGS_ALL := $(WARN) $(OPTFLAGS) $(HARDEN_CFLAGS) $(SAN_FLAGS) $(USER_CFLAGS) \
	$(YAML_CFLAGS) $(CAP_CFLAGS) $(CPPFLAGS_ALL)
LDFLAGS_ALL := $(HARDEN_LDFLAGS) $(SAN_FLAGS) $(STATIC_LDFLAGS) $(USER_LDFLAGS)
RUNTIME_LIBS := $(YAML_LIBS) $(CAP_LIBS)

# --- sources --------------------------------------------------------------
RUNTIME_MAIN := runtime/check/main.c
COMPILER_MAIN := compiler/main.c
RUNTIME_SRC := $(filter-out $(RUNTIME_MAIN),$(sort $(wildcard runtime/*/*.c runtime/*/*/*.c)))
COMPILER_SRC := $(filter-out $(COMPILER_MAIN),$(sort $(wildcard compiler/*.c)))
GEN_SRC := $(if $(wildcard grammar/parser.y),$(G)/parser.c) $(if $(wildcard grammar/lexer.re),$(G)/lexer.c)

RUNTIME_OBJ := $(RUNTIME_SRC:%.c=$(B)/obj/%.o)
COMPILER_OBJ := $(COMPILER_SRC:%.c=$(B)/obj/%.o) $(GEN_SRC:$(G)/%.c=$(B)/obj/gen/%.o)

LIBRUNTIME := $(B)/libhp-runtime.a
LIBCOMPILER := $(B)/libhp-compiler.a

UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)
TEST_SUPPORT_SRC := $(sort $(wildcard tests/support/*.c))
TEST_SUPPORT_OBJ := $(TEST_SUPPORT_SRC:%.c=$(B)/obj/%.o)

PROGS := $(B)/hangar-policy $(B)/hangar-policy-runtime

# Programs the tests use (tests/tools/NAME.c -> build/tools/NAME).
TOOL_SRC := $(sort $(wildcard tests/tools/*.c))
TOOL_BIN := $(TOOL_SRC:tests/tools/%.c=$(B)/tools/%)

# Fuzz harnesses: tests/fuzz/fuzz_NAME.c defines LLVMFuzzerTestOneInput and
# has its seed corpus in tests/fuzz/corpus/NAME/. `make check` replays each
# corpus with the ordinary compiler; `make fuzz` builds libFuzzer binaries
# with clang, ASan and UBSan in build-fuzz/.
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_REPLAY := $(FUZZ_SRC:tests/fuzz/%.c=$(B)/fuzz-replay/%)

.PHONY: all check unit e2e fuzz fuzz-bins fuzz-run bench run install uninstall clean distclean mutate
all: $(PROGS)

# --- generated sources ----------------------------------------------------
$(G)/parser.c $(G)/parser.h: grammar/parser.y | $(G)
	$(BISON) -Wall -Werror --defines=$(G)/parser.h -o $(G)/parser.c $<

$(G)/lexer.c: grammar/lexer.re $(G)/parser.h | $(G)
	$(RE2C) -W -Werror --no-generation-date --no-version -o $@ $<

# Everything in compiler/ may include the generated parser header.
$(COMPILER_SRC:%.c=$(B)/obj/%.o): $(if $(wildcard grammar/parser.y),$(G)/parser.h)

# --- objects, libraries, programs ----------------------------------------
$(B)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -MMD -MP -c -o $@ $<

$(B)/obj/gen/%.o: $(G)/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -Wno-unused-function -MMD -MP -c -o $@ $<

$(LIBRUNTIME): $(RUNTIME_OBJ)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(LIBCOMPILER): $(COMPILER_OBJ)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

# The default policy is built in: a stage-0 hangar-policy (the same objects
# with an empty built-in policy) compiles policies/default.hpol, and the
# bytecode becomes a C array linked into both executables.
DEFAULT_POLICY_OBJ := $(B)/obj/gen/default_policy.o
$(G)/default_policy_none.c: | $(G)
	printf '%s\n' '/* generated: no built-in policy (stage 0) */' '#include "check/default_policy.h"' \
		'const unsigned char hp_default_policy[1];' 'const size_t hp_default_policy_len = 0;' >$@

$(B)/hangar-policy-stage0: $(B)/obj/$(COMPILER_MAIN:.c=.o) $(B)/obj/gen/default_policy_none.o \
		$(LIBCOMPILER) $(LIBRUNTIME)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(RUNTIME_LIBS)

$(G)/default.hpb: $(wildcard policies/*.hpol) $(B)/hangar-policy-stage0
	$(B)/hangar-policy-stage0 compile policies/default.hpol -o $@

$(G)/default_policy.c: $(G)/default.hpb
	{ echo '/* generated from policies/default.hpol by the build: do not edit */'; \
	  echo '#include "check/default_policy.h"'; \
	  echo 'const unsigned char hp_default_policy[] = {'; \
	  od -An -v -tx1 $< | sed 's/\([0-9a-f][0-9a-f]\)/0x\1,/g'; \
	  echo '};'; \
	  echo 'const size_t hp_default_policy_len = sizeof hp_default_policy;'; } >$@.tmp && mv $@.tmp $@

$(B)/hangar-policy-runtime: $(B)/obj/$(RUNTIME_MAIN:.c=.o) $(DEFAULT_POLICY_OBJ) $(LIBRUNTIME)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(RUNTIME_LIBS)

$(B)/hangar-policy: $(B)/obj/$(COMPILER_MAIN:.c=.o) $(DEFAULT_POLICY_OBJ) $(LIBCOMPILER) $(LIBRUNTIME)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(RUNTIME_LIBS)

$(G):
	@mkdir -p $@

# --- tests ----------------------------------------------------------------
# Unit tests link cmocka dynamically even in a static build: they never ship.
$(B)/tests/test_%: tests/unit/test_%.c $(TEST_SUPPORT_OBJ) $(LIBCOMPILER) $(LIBRUNTIME)
	@mkdir -p $(@D)
	$(CC) $(filter-out $(STATIC_LDFLAGS),$(CFLAGS_ALL)) $(CMOCKA_CFLAGS) -Itests/support -MMD -MP \
		$(filter-out -static -static-pie,$(LDFLAGS_ALL)) -o $@ $(filter %.c %.o %.a,$^) \
		$(CMOCKA_LIBS) $(RUNTIME_LIBS)

$(B)/fuzz-replay/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/replay_main.c $(LIBCOMPILER) $(LIBRUNTIME)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -Wno-missing-prototypes -Itests/support -MMD -MP \
		$(filter-out -static -static-pie,$(LDFLAGS_ALL)) -o $@ $(filter %.c %.o %.a,$^) $(RUNTIME_LIBS)

unit: $(UNIT_BIN)
e2e: $(PROGS)

$(B)/tools/%: tests/tools/%.c
	@mkdir -p $(@D)
	$(CC) $(filter-out -Wmissing-prototypes,$(CFLAGS_ALL)) -MMD -MP \
		$(filter-out -static -static-pie,$(LDFLAGS_ALL)) -o $@ $<

check: all $(UNIT_BIN) $(FUZZ_REPLAY) $(TOOL_BIN)
	@sh tests/run-tests.sh $(B) $(UNIT_BIN)

# Mutation testing of the decision path (tests/mutate/*.mut): each mutant is
# built in build-mutate/, never in build/, and the unit tests it names run.
# MUTATIONS=glob runs only some. Not part of check (it takes minutes);
# check's e2e case build/mutations-apply keeps the list from rotting.
mutate:
	@sh tests/mutate/run.sh $(MUTATIONS)

# libFuzzer builds: clang with the fuzzer, ASan and UBSan, in their own tree.
FUZZ_CC ?= clang
FUZZ_FLAGS := -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -g -O1
fuzz:
	$(MAKE) B=build-fuzz CC=$(FUZZ_CC) OPTFLAGS="$(FUZZ_FLAGS)" HARDEN_CFLAGS= HARDEN_LDFLAGS= \
		SAN_FLAGS= STATIC_LDFLAGS= EXTRA_CFLAGS= fuzz-bins

FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=$(B)/%)
fuzz-bins: $(FUZZ_BIN)
$(B)/fuzz_%: tests/fuzz/fuzz_%.c $(LIBCOMPILER) $(LIBRUNTIME)
	$(CC) $(CFLAGS_ALL) -Wno-missing-prototypes -fsanitize=fuzzer,address,undefined -o $@ $(filter %.c %.a,$^) $(RUNTIME_LIBS)

# make fuzz-run FUZZ_SECONDS=N runs every harness for N seconds on its corpus
# (tests/fuzz/corpus/NAME/) with its dictionary (tests/fuzz/NAME.dict) if any.
FUZZ_SECONDS ?= 30
fuzz-run: fuzz
	@for f in $(FUZZ_SRC:tests/fuzz/%.c=%); do \
		n=$${f#fuzz_}; \
		mkdir -p build-fuzz/corpus/$$f; \
		dict=; [ -f tests/fuzz/$$n.dict ] && dict=-dict=tests/fuzz/$$n.dict; \
		echo "fuzzing $$f for $(FUZZ_SECONDS)s"; \
		build-fuzz/$$f -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 $$dict \
			-artifact_prefix=build-fuzz/$$f- build-fuzz/corpus/$$f tests/fuzz/corpus/$$n \
			>build-fuzz/$$f.log 2>&1 || { tail -40 build-fuzz/$$f.log; exit 1; }; \
		tail -1 build-fuzz/$$f.log; \
	done

run: all
	@sh tests/run-main.sh $(B)

# --- install --------------------------------------------------------------
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 0755 $(PROGS) $(DESTDIR)$(PREFIX)/bin/
	for m in docs/man/*.1; do [ -f "$$m" ] && install -m 0644 "$$m" $(DESTDIR)$(PREFIX)/share/man/man1/; done; true

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/hangar-policy $(DESTDIR)$(PREFIX)/bin/hangar-policy-runtime

clean:
	rm -rf $(B) build-fuzz build-mutate

distclean: clean
	rm -f config.mk

# Objects built on the way to a test are kept, not deleted as intermediates.
.SECONDARY:

-include $(shell find $(B) -name '*.d' 2>/dev/null)

# --- benchmarks -------------------------------------------------------------
# tests/bench/bench_NAME.c is built into $(B)/bench/bench_NAME by `make bench`;
# each prints its figures and never fails on time (docs/performance.md).
BENCH_SRC := $(sort $(wildcard tests/bench/bench_*.c))
BENCH_BIN := $(BENCH_SRC:tests/bench/%.c=$(B)/bench/%)
bench: $(BENCH_BIN)
$(B)/bench/bench_%: tests/bench/bench_%.c $(LIBCOMPILER) $(LIBRUNTIME)
	@mkdir -p $(@D)
	$(CC) $(filter-out $(STATIC_LDFLAGS),$(CFLAGS_ALL)) -MMD -MP \
		$(filter-out -static -static-pie,$(LDFLAGS_ALL)) -o $@ $(filter %.c %.a,$^) $(RUNTIME_LIBS)
