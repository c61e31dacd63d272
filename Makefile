# Makefile: builds hangar-policy (the whole command) and hangar-policy-runtime
# (the runtime alone), runs the tests, installs. Sources are found by directory:
# adding a .c file to a folder of runtime/ (runtime/PART/ or
# runtime/PART/SUB/) or to compiler/ adds it to that library, and adding
# tests/unit/test_NAME.c adds a unit test. Generated sources live in build/.

ifeq ($(wildcard config.mk),)
ifneq ($(filter-out clean distclean,$(or $(MAKECMDGOALS),all)),)
$(error config.mk is missing: run ./configure first)
endif
else
include config.mk
endif

# Installation directories (configure writes them; these hold for an older config.mk)
EXEC_PREFIX ?= $(PREFIX)
BINDIR ?= $(EXEC_PREFIX)/bin
DATAROOTDIR ?= $(PREFIX)/share
DATADIR ?= $(DATAROOTDIR)
MANDIR ?= $(DATAROOTDIR)/man
DOCDIR ?= $(DATAROOTDIR)/doc/hangar-policy

B := build
VERSION := $(shell sed -n 's/^[#]define HP_VERSION "\(.*\)"$$/\1/p' runtime/lib/version.h)
G := $(B)/gen

# CC, CFLAGS, CPPFLAGS and LDFLAGS are the user's (configure records them;
# `make CFLAGS=...` overrides): they come after the project's optimisation
# and hardening, so the user's -O or -g wins, and before the project's
# warnings, which no flag given turns off. A _FORTIFY_SOURCE the user sets
# (dpkg-buildflags does) replaces the project's own, never redefines it.
WARN := -std=c11 -Wall -Wextra -Werror -Wpedantic $(EXTRA_CFLAGS)
FORTIFY := $(if $(findstring _FORTIFY_SOURCE,$(CPPFLAGS) $(CFLAGS)),,$(FORTIFY_CPPFLAGS))
CPPFLAGS_ALL := -D_GNU_SOURCE -I. -Iruntime -Icompiler -I$(G) $(FORTIFY) $(CPPFLAGS)
CFLAGS_ALL := $(OPTFLAGS) $(HARDEN_CFLAGS) $(SAN_FLAGS) $(CFLAGS) $(WARN) \
	$(YAML_CFLAGS) $(CAP_CFLAGS) $(CPPFLAGS_ALL)
LDFLAGS_ALL := $(HARDEN_LDFLAGS) $(SAN_FLAGS) $(STATIC_LDFLAGS) $(LDFLAGS)
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

.PHONY: all man install-list dist distcheck deb-check check check-private-clone unit e2e fuzz fuzz-bins fuzz-run bench run install uninstall clean distclean mutate
all: $(PROGS) man

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
$(G)/default_policy_none.c: Makefile | $(G)
	printf '%s\n' '/* generated: no built-in policy (stage 0) */' '#include "check/default_policy.h"' \
		'const unsigned char hp_default_policy[1];' 'const size_t hp_default_policy_len = 0;' \
		'const char hp_default_policy_source[] = "";' >$@

$(B)/hangar-policy-stage0: $(B)/obj/$(COMPILER_MAIN:.c=.o) $(B)/obj/gen/default_policy_none.o \
		$(LIBCOMPILER) $(LIBRUNTIME)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(RUNTIME_LIBS)

$(G)/default.hpb: $(wildcard policies/*.hpol) $(B)/hangar-policy-stage0
	$(B)/hangar-policy-stage0 compile policies/default.hpol -o $@

$(G)/default_policy.c: $(G)/default.hpb $(B)/datadir.stamp
	{ echo '/* generated from policies/default.hpol by the build: do not edit */'; \
	  echo '#include "check/default_policy.h"'; \
	  echo 'const unsigned char hp_default_policy[] = {'; \
	  od -An -v -tx1 $< | sed 's/\([0-9a-f][0-9a-f]\)/0x\1,/g'; \
	  echo '};'; \
	  echo 'const size_t hp_default_policy_len = sizeof hp_default_policy;'; \
	  echo 'const char hp_default_policy_source[] = "$(POLICYDIR)/default.hpol";'; } >$@.tmp && mv $@.tmp $@

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

# A release tarball of the files git tracks ($(B)/hangar-policy-VERSION.tar.gz);
# distcheck unpacks it alone, then configures, builds and runs make check.
DIST := hangar-policy-$(VERSION)
dist:
	@git rev-parse --git-dir >/dev/null 2>&1 || { echo "make dist: needs a git checkout" >&2; exit 1; }
	rm -rf $(B)/dist && mkdir -p $(B)/dist/$(DIST)
	git ls-files -z | xargs -0 cp --parents -t $(B)/dist/$(DIST)
	tar -C $(B)/dist --sort=name --owner=0 --group=0 --numeric-owner \
		--mtime="@$$(git log -1 --format=%ct)" -czf $(B)/$(DIST).tar.gz $(DIST)
	rm -rf $(B)/dist
	@echo "wrote $(B)/$(DIST).tar.gz"
distcheck: dist
	@d=$$(mktemp -d /tmp/hangar-policy-dist.XXXXXX) && trap 'rm -rf "$$d"' EXIT && \
	tar -C "$$d" -xzf $(B)/$(DIST).tar.gz && cd "$$d/$(DIST)" && \
	./configure >/dev/null && $(MAKE) >/dev/null && $(MAKE) check

# The Debian package, built and unpacked into a fresh root (tests/deb-check.sh).
deb-check:
	@sh tests/deb-check.sh

# The whole suite again in a fresh clone of HEAD under a 0700 directory.
check-private-clone:
	@sh tests/private-clone.sh

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
	$(MAKE) B=build-fuzz CC=$(FUZZ_CC) OPTFLAGS="$(FUZZ_FLAGS)" HARDEN_CFLAGS= FORTIFY_CPPFLAGS= HARDEN_LDFLAGS= \
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

# --- man pages ----------------------------------------------------------
# The pages name where the policies are installed, so they are written into
# $(B)/man with DATADIR filled in; hangar-policy(5) is made from
# docs/language.md (tests/tools/md2man.awk), so the two cannot drift.
MAN_PAGES := $(B)/man/hangar-policy.1 $(B)/man/hangar-policy-runtime.1 $(B)/man/hangar-policy.5
man: $(MAN_PAGES)
# remade when DATADIR changes (make install PREFIX=... after a build): the
# man pages and the built-in policy's source name it
$(B)/datadir.stamp: FORCE
	@mkdir -p $(@D)
	@echo '$(DATADIR)' | cmp -s - $@ || echo '$(DATADIR)' >$@
.PHONY: FORCE
FORCE:
$(B)/man/%.1: docs/man/%.1 $(B)/datadir.stamp
	@mkdir -p $(@D)
	sed 's|/usr/share/hangar-policy|$(DATADIR)/hangar-policy|g' $< >$@.tmp && mv $@.tmp $@
$(B)/man/hangar-policy.5: docs/language.md docs/man/md2man.awk $(B)/datadir.stamp
	@mkdir -p $(@D)
	awk -f docs/man/md2man.awk -v name=HANGAR-POLICY -v section=5 \
		-v title="the hangar policy language" -v version="hangar-policy $(VERSION)" \
		-v date="$(shell sed -n '1s/^\.TH [^ ]* [0-9] "\([^"]*\)".*/\1/p' docs/man/hangar-policy.1)" \
		-v datadir='$(DATADIR)' $< >$@.tmp && mv $@.tmp $@

# --- install --------------------------------------------------------------
# One list of what is installed where; uninstall removes exactly it, then
# the directories it made that are left empty (under DESTDIR every empty
# one up to DESTDIR; without DESTDIR only hangar-policy's own).
BASHCOMPDIR ?= $(DATAROOTDIR)/bash-completion/completions
ZSHCOMPDIR ?= $(DATAROOTDIR)/zsh/site-functions
VIMDIR ?= $(DATAROOTDIR)/vim/vimfiles
POLICYDIR = $(DATADIR)/hangar-policy/policies
POLICY_FILES := $(shell find policies -type f | LC_ALL=C sort)
DOC_FILES := README.md LICENSE $(sort $(wildcard docs/*.md)) docs/report.schema.json
# "source destination mode", one a line
define INSTALL_LIST
$(foreach p,$(PROGS),$(p) $(BINDIR)/$(notdir $(p)) 0755
)$(foreach m,$(filter %.1,$(MAN_PAGES)),$(m) $(MANDIR)/man1/$(notdir $(m)) 0644
)$(foreach m,$(filter %.5,$(MAN_PAGES)),$(m) $(MANDIR)/man5/$(notdir $(m)) 0644
)$(foreach f,$(POLICY_FILES),$(f) $(POLICYDIR)/$(f:policies/%=%) 0644
)$(foreach f,$(DOC_FILES),$(f) $(DOCDIR)/$(notdir $(f)) 0644
)contrib/completion/hangar-policy.bash $(BASHCOMPDIR)/hangar-policy 0644
contrib/completion/hangar-policy.bash $(BASHCOMPDIR)/hangar-policy-runtime 0644
contrib/completion/_hangar-policy $(ZSHCOMPDIR)/_hangar-policy 0644
contrib/vim/syntax/hpol.vim $(VIMDIR)/syntax/hpol.vim 0644
contrib/vim/ftdetect/hpol.vim $(VIMDIR)/ftdetect/hpol.vim 0644
endef
export INSTALL_LIST

install: all man
	@printf '%s\n' "$$INSTALL_LIST" | while read -r src dst mode; do \
		[ -n "$$src" ] || continue; \
		echo "install $$src $(DESTDIR)$$dst"; \
		install -d "$(DESTDIR)$${dst%/*}" && install -m "$$mode" "$$src" "$(DESTDIR)$$dst" || exit 1; \
	done

uninstall:
	@printf '%s\n' "$$INSTALL_LIST" | while read -r src dst mode; do \
		[ -n "$$dst" ] || continue; \
		rm -f "$(DESTDIR)$$dst"; \
		d=$${dst%/*}; \
		while [ -n "$$d" ] && [ "$$d" != / ]; do \
			case $$d in \
			$(DATADIR)/hangar-policy | $(DATADIR)/hangar-policy/* | $(DOCDIR)) ;; \
			*) [ -n "$(DESTDIR)" ] || break ;; \
			esac; \
			rmdir "$(DESTDIR)$$d" 2>/dev/null || break; \
			d=$${d%/*}; \
		done; \
	done; \
	if [ -n "$(DESTDIR)" ]; then rmdir "$(DESTDIR)" 2>/dev/null || true; fi

# The installed file list, for packaging checks (debian/, the e2e cases).
install-list:
	@printf '%s\n' "$$INSTALL_LIST" | awk 'NF { print $$2 }'

clean:
	rm -rf $(B) build-fuzz build-mutate

distclean: clean
	rm -f config.mk

# Objects built on the way to a test are kept, not deleted as intermediates.
.SECONDARY:

# Only dependency files: not a directory named *.d, nor anything under a
# benchmark's scratch tree in $(B) (fleet.sh copies /etc there).
-include $(shell find $(B) -path '$(B)/fleet.*' -prune -o -name '*.d' -type f -print 2>/dev/null)

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
