# Every target sets up .venv on first use; a fresh machine needs only python3, pip and make.
# Nothing runs while this file is read: the build's inputs are make's own wildcards.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PIP    := $(BIN)/python -m pip install --quiet --disable-pip-version-check
# uv installs the dependencies several times faster than pip (it fetches them side by side);
# where uv cannot be had or cannot reach the index, pip does the same install.
UV     := $(BIN)/uv pip install --quiet --python $(BIN)/python
# Every install is held to requirements.lock: the versions `make test` was last green with,
# for each extra and for the tools below, so a fresh clone builds today what it built then,
# whatever has been released since.  pyproject.toml keeps ranges for users; `make lock`
# moves the lock to the newest releases and says what moved; `make test-latest` and
# `make test-lowest` run the suite on the newest and on the lowest versions the ranges allow.
LOCK   := requirements.lock
install = if [ -x $(BIN)/uv ] && $(UV) -c $(LOCK) $(1); then :; else $(PIP) -c $(LOCK) $(1); fi

# Python keeps the bytecode it compiles (in __pycache__, which git ignores), even where the
# environment asks it not to: the suite starts hundreds of interpreters (pytest's workers,
# the CLI's and the fault matrix's children, dask's workers), and each would otherwise
# compile dask, pandas and pyarrow again from source (the unit stage's first pass: 275 CPU
# seconds with the environment's setting, 240 without).
unexport PYTHONDONTWRITEBYTECODE

SOURCES := lazyfun tests fuzz benchmarks examples docs/hooks setup.py mypyc_docs.py conftest.py noxfile.py .ci/pins.py
# What the compiled build is made from: the package's Python (mypyc reads the compiled
# modules and what they import) and the C engines.  A change rebuilds in place, and
# setup.py build_ext compiles only what is out of date.
PACKAGE := $(wildcard lazyfun/*.py lazyfun/*/*.py lazyfun/*/*/*.py)
ENGINE  := $(wildcard lazyfun/sudoku/solving/learning_c/*.c lazyfun/sudoku/solving/learning_c/*.h) \
	$(wildcard lazyfun/streams/sync/flow_c/*.c lazyfun/streams/sync/flow_c/*.h) \
	$(wildcard lazyfun/sudoku/steps/forcing_c/*.c lazyfun/sudoku/steps/forcing_c/*.h) \
	$(wildcard lazyfun/sudoku/solving/nine_c/*.c lazyfun/sudoku/solving/nine_c/*.h) \
	$(wildcard lazyfun/sudoku/canon/minlex_c/*.c lazyfun/sudoku/canon/minlex_c/*.h) \
	$(wildcard lazyfun/csp/propagation/kernels_c/*.c lazyfun/csp/propagation/kernels_c/*.h) \
	$(wildcard lazyfun/sinks/arrow_c/*.c)
SAY_BUILD = $(BIN)/python -c 'from lazyfun.compiled import describe; print(describe())'

.PHONY: demo test coverage test-all test-latest test-lowest lock setup build lint typecheck mypy stubtest unit browser docs docs-figures slow bench sanitize fuzz dist clean

# the tools first (pyproject.toml's group `tools`), at the lock's versions
$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) -c $(LOCK) uv || echo "uv not available: pip installs instead"
	$(call install,--upgrade pip setuptools wheel mypy)

# The dependencies, and the package installed in place as source; the compiling is
# $(VENV)/.built's, so that it can run beside the checks that need only the source.
INSTALL = export LAZYFUN_PURE_BUILD=1; $(call install,--no-build-isolation -e $(1))
$(VENV)/.base: pyproject.toml setup.py $(LOCK) | $(BIN)/python
	$(call INSTALL,.)
	touch $@

$(VENV)/.dev: pyproject.toml setup.py $(LOCK) | $(BIN)/python
	$(call INSTALL,'.[dev]')
	touch $@ $(VENV)/.base

# a variable: make splits a call's arguments at its commas before expanding them
BENCH_EXTRAS := '.[dev,bench,plot]'
$(VENV)/.bench: pyproject.toml setup.py $(LOCK) | $(BIN)/python
	$(call INSTALL,$(BENCH_EXTRAS))
	touch $@ $(VENV)/.dev $(VENV)/.base

# The compiled modules and the C engine, in place, rebuilt when their sources change
# (mypyc's group and the C engine compiled side by side), after the dependencies, whose
# types mypyc reads.
$(VENV)/.built: $(PACKAGE) $(ENGINE) mypyc_docs.py | $(VENV)/.base
	$(BIN)/python setup.py --quiet build_ext --inplace --parallel 2
	# mypyc rewrites a module's loader only when it changes: the build has just made every
	# one current, so each is dated now (tests/test_compiled.py checks none is older)
	find lazyfun -name '*.cpython-*.so' -exec touch {} +
	$(SAY_BUILD)
	touch $@

DEV := $(VENV)/.dev $(VENV)/.built
build: $(DEV)

# The demo's first screen is the demo: setting up .venv and compiling (minutes, on a fresh
# clone) write to build/demo-setup.log, shown only when they fail.
demo:
	@mkdir -p build
	@echo "lazyfun demo: setting up .venv where needed (the log: build/demo-setup.log)"
	@$(MAKE) --no-print-directory $(VENV)/.base $(VENV)/.built >build/demo-setup.log 2>&1 \
		|| { cat build/demo-setup.log; exit 1; }
	@$(BIN)/lazyfun demo

# The lock, moved to the newest releases the ranges in pyproject.toml allow (every extra and
# the tools, for any platform and Python from 3.11); then the pins that moved.  Run it on
# purpose (after `make test-latest` is green), commit the lock with what it took to pass.
lock: | $(BIN)/python
	@mkdir -p build && touch $(LOCK) && cp $(LOCK) build/lock.before
	UV_CUSTOM_COMPILE_COMMAND="make lock" $(BIN)/uv pip compile pyproject.toml --all-extras \
		--group tools --universal --python-version 3.11 --upgrade --quiet -o $(LOCK)
	@echo "make lock: $$($(BIN)/python .ci/pins.py build/lock.before $(LOCK))"

# The unit tests' first pass on the newest releases, and on the lowest versions the ranges
# allow, each in a copy of the tree with its own environment (.ci/deps says how).
test-latest test-lowest: | $(BIN)/python
	bash .ci/deps $(@:test-%=%)

# The stages of `make test`, one after another; those joined by `+` run side by side,
# each one's output printed whole when it ends.  Each stage's time is written to
# $(STAGE_TIMES) and the table printed at the end, also when a stage fails (make then
# stops there and exits with that stage's status).  Compiling, mypy and the browser's
# packages take one core each, so they share the setup's wait.  The unit tests leave a
# core idle for a third of their time (a test waiting on a child, a timeout, a cluster's
# start), so the docs, the sanitizers and stubtest run beside them at a lower priority
# (SIDE): they take what the tests leave, and the stage takes about the tests' time.
STAGES := setup lint build+mypy+browser unit+docs+sanitize+stubtest
SIDE ?=
STAGE_TIMES := build/stage-times.txt
test:
	@mkdir -p $(dir $(STAGE_TIMES)) && : > $(STAGE_TIMES); \
	status=0; all=$$(date +%s); \
	for stage in $(STAGES); do \
		start=$$(date +%s); \
		$(MAKE) --no-print-directory -j4 --output-sync=target SIDE="nice -n 10" $$(echo $$stage | tr + ' ') \
			|| status=$$?; \
		echo "$$stage $$(($$(date +%s) - start))" >> $(STAGE_TIMES); \
		if [ $$status -ne 0 ]; then echo "make test: $$stage failed"; break; fi; \
	done; \
	echo "total $$(($$(date +%s) - all))" >> $(STAGE_TIMES); \
	echo; echo "stage                seconds"; \
	while read -r stage seconds; do printf '%-20s %7s\n' "$$stage" "$$seconds"; done < $(STAGE_TIMES); \
	exit $$status

# The environment: .venv with the dependencies and the package's source.
setup: $(VENV)/.dev

lint: $(VENV)/.dev
	$(BIN)/ruff check $(SOURCES)
	$(BIN)/ruff format --check $(SOURCES)
	$(BIN)/lint-imports --no-cache

# mypy --strict and pyright on the source (they need nothing compiled), then stubtest on the stubs of the
# modules built otherwise: the vocabulary and, once compiled, the C engines.  tests/typing is the typing
# suite (assert_type, and calls that must be refused), checked by mypy --strict with the tests and by
# pyright --strict with its own pyrightconfig.json.
typecheck: mypy stubtest

mypy: $(VENV)/.dev
	$(BIN)/mypy --strict lazyfun tests examples docs/hooks setup.py mypyc_docs.py conftest.py noxfile.py .ci/pins.py
	$(BIN)/pyright --pythonpath $(BIN)/python lazyfun
	$(BIN)/pyright --pythonpath $(BIN)/python -p tests/typing

C_ENGINES := lazyfun.sudoku.solving._learning lazyfun.streams.sync._flow lazyfun.sudoku.steps._forcing \
	lazyfun.sudoku.solving._nine lazyfun.sudoku.canon._minlex lazyfun.csp.propagation._kernels \
	lazyfun.sinks._arrow
stubtest: $(DEV)
	@stubs=lazyfun.vocab; \
	for engine in $(C_ENGINES); do \
		if $(BIN)/python -c "import $$engine" 2>/dev/null; then stubs="$$stubs $$engine"; \
		else echo "stubtest: $$engine not built here, skipped"; fi; \
	done; \
	echo "stubtest $$stubs"; \
	$(SIDE) $(BIN)/python -m mypy.stubtest --mypy-config-file .ci/stubtest.ini $$stubs

# The coverage floor of `make coverage` (CI's step after `make test`).
COVERAGE_FLOOR := 94
# The browser tests' headless Chromium, its driver and pdfinfo, and minizinc (with Gecode) for
# the FlatZinc tests, from Debian's packages when they are missing and we run as root (as CI
# does); elsewhere those tests skip and say why.
BROWSER_PACKAGES := chromium chromium-driver poppler-utils minizinc
browser:
	@if command -v chromedriver >/dev/null && command -v pdfinfo >/dev/null \
		&& command -v minizinc >/dev/null; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "installing $(BROWSER_PACKAGES) for the browser tests"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -qq $(BROWSER_PACKAGES) >/dev/null; \
	else echo "browser tests will skip: install $(BROWSER_PACKAGES)"; fi

# Both passes on a worker more than the cores (pytest-xdist; a test waiting on a child
# process or a timeout leaves its core to the others; JOBS=0 runs in one process); --dist loadfile
# keeps a file's tests in one process, one after another, so a module's fixture (a
# cluster, a browser) is started once and lives only while its file runs.  (Handing tests
# out one by one, worksteal, saved some 14 s of 248 but left a file's dask cluster alive,
# its nanny restarting a killed worker, under other files' tests: a memory peak and a
# count of child processes saw it.)  A test that hangs fails after TIMEOUT seconds, its
# threads' stacks printed, and the run goes on: the suite never hangs.
JOBS ?= $$(($$(nproc) + 1))
TIMEOUT ?= 300
PARALLEL = -n $(JOBS) --dist loadfile --timeout=$(TIMEOUT)

# Twice: as installed (compiled, every test, the cross-checks on the public sets in
# ../shared/data among them where it is), then the tests marked `compiled` on the compiled
# modules' own source.  No tracer: on Python 3.11 coverage's tracer slows all the Python a
# traced process runs, traced or not, and took a third of the suite's CPU time.
unit: $(DEV) browser
	$(BIN)/pytest $(PARALLEL) --durations=10
	LAZYFUN_PURE=1 $(BIN)/pytest $(PARALLEL) --durations=10 -m "compiled and not slow"

# The coverage floor, over the same two passes under the tracer, each running only the tests
# it traces (in the compiled pass a test marked `compiled` or `untraced` runs untraced, so
# it is left out: its lines are counted from source), as a bare clone runs them:
# LAZYFUN_SHARED_DATA set empty, so the floor counts only what the repo's own tests reach
# and holds on a user's clone, which has no ../shared beside it.  CI runs it after `make test`.
coverage: $(DEV) browser
	LAZYFUN_SHARED_DATA= $(BIN)/pytest $(PARALLEL) -m "not compiled and not untraced and not slow and not dist" \
		--cov --cov-report=
	LAZYFUN_SHARED_DATA= LAZYFUN_PURE=1 $(BIN)/pytest $(PARALLEL) -m "compiled and not slow" \
		--cov --cov-append --cov-fail-under=$(COVERAGE_FLOOR)

# The user guide and API reference; --strict turns broken links into failures.
docs: $(DEV)
	NO_MKDOCS_2_WARNING=1 $(SIDE) $(BIN)/mkdocs build --strict

# Regenerate the charts the docs show (the laziness study).
docs-figures: $(DEV)
	$(BIN)/lazyfun study queens --from 4 --to 12 --run-limit 7 --plot docs/queens-study.png
	$(BIN)/lazyfun study sudoku --plot docs/sudoku-study.png

# The unit tests on every Python from 3.11 to 3.14 that this machine has (noxfile.py);
# pyenv's installs, where there are some, are all made visible to nox by name.
test-all: test
	PYENV_VERSION="$$(pyenv versions --bare 2>/dev/null | tr '\n' ':' | sed 's/:$$//')" \
		$(BIN)/nox --session tests

# The C engines built with AddressSanitizer and UndefinedBehaviorSanitizer, their tests
# (and the fuzz of the learning engine's entry points) run against them in a copy of the
# tree; any report fails.  The copy holds no mypyc module (its .so are deleted), so its
# source runs without LAZYFUN_PURE=1, which would turn the flow engine off too.
SANITIZERS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
SANITIZE_DIR := build/sanitize
PY_INCLUDE = $$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
EXT_SUFFIX = $$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
SANITIZE_CC = $(SIDE) $(CC) -shared -fPIC -O1 -g -Wall -Wextra -Werror $(SANITIZERS) -I"$(PY_INCLUDE)"
FLOW_TESTS := tests/test_flow_c.py tests/test_flow.py tests/test_nothing_lost.py \
	tests/test_peer_behaviours.py tests/test_operators.py tests/test_stream.py lazyfun/streams
# the tests of generation that run its C routines (blanking and completing a 9x9 grid)
GENERATION_C_TESTS := $(addprefix tests/sudoku/test_generation.py::test_, \
	every_puzzle_is_unique_and_minimal symmetric_puzzles_are_symmetric_unique_and_orbit_minimal \
	the_c_minimiser_makes_the_puzzle_the_python_loop_makes \
	the_c_completion_is_the_engines_first_solution \
	the_c_completion_refuses_conflicting_givens_and_says_none_on_a_dead_end \
	c_minimised_puzzles_are_unique_and_minimal_by_counting \
	the_stream_is_the_same_with_and_without_the_c_routines \
	the_c_minimiser_refuses_what_is_not_a_grid_and_its_orbits)
# Under the sanitizers three of the learning engine's 25x25 searches take 66 s of the run's
# 120 (a second each compiled): `make test` leaves those three to `make slow`, which runs
# the whole list; the other 25x25 puzzles of the set still run.
SANITIZE_LONG := $(foreach case,are_proved_unique_as_cp_sat_proved_them[10] \
	are_proved_unique_as_cp_sat_proved_them[2] reach_their_recorded_solution[11], \
	--deselect 'tests/sudoku/test_learning.py::test_25x25_puzzles_of_the_set_$(case)')
SANITIZE_ARGS ?= $(SANITIZE_LONG)
sanitize: $(DEV)
	rm -rf $(SANITIZE_DIR)
	mkdir -p $(SANITIZE_DIR)
	cp -r lazyfun tests conftest.py pyproject.toml $(SANITIZE_DIR)/
	find $(SANITIZE_DIR) -name '*.so' -delete
	$(SANITIZE_CC) lazyfun/sudoku/solving/learning_c/*.c \
		-o $(SANITIZE_DIR)/lazyfun/sudoku/solving/_learning$(EXT_SUFFIX)
	$(SANITIZE_CC) lazyfun/streams/sync/flow_c/*.c \
		-o $(SANITIZE_DIR)/lazyfun/streams/sync/_flow$(EXT_SUFFIX)
	$(SANITIZE_CC) lazyfun/sudoku/steps/forcing_c/*.c \
		-o $(SANITIZE_DIR)/lazyfun/sudoku/steps/_forcing$(EXT_SUFFIX)
	$(SANITIZE_CC) lazyfun/sudoku/solving/nine_c/*.c \
		-o $(SANITIZE_DIR)/lazyfun/sudoku/solving/_nine$(EXT_SUFFIX)
	$(SANITIZE_CC) lazyfun/sudoku/canon/minlex_c/*.c \
		-o $(SANITIZE_DIR)/lazyfun/sudoku/canon/_minlex$(EXT_SUFFIX)
	$(SANITIZE_CC) lazyfun/csp/propagation/kernels_c/*.c \
		-o $(SANITIZE_DIR)/lazyfun/csp/propagation/_kernels$(EXT_SUFFIX)
	$(SANITIZE_CC) lazyfun/sinks/arrow_c/*.c -o $(SANITIZE_DIR)/lazyfun/sinks/_arrow$(EXT_SUFFIX)
	cd $(SANITIZE_DIR) && ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		LD_PRELOAD="$$($(CC) -print-file-name=libasan.so) $$($(CC) -print-file-name=libubsan.so)" \
		$(SIDE) $(CURDIR)/$(BIN)/python -m pytest -p no:cacheprovider \
		tests/sudoku/test_learning.py tests/sudoku/test_learning_fuzz.py lazyfun/sudoku/solving/learning.py \
		$(GENERATION_C_TESTS) \
		$(FLOW_TESTS) tests/sudoku/test_forcing_c.py \
		tests/sudoku/test_nine_engine.py tests/sudoku/test_nine_fuzz.py lazyfun/sudoku/solving/nine.py \
		tests/sudoku/test_minlex_c.py tests/csp/test_kernels.py tests/csp/test_reified_shift.py \
		-n 2 --dist loadfile $(SANITIZE_ARGS)
	# the sort's, the windows' and the Parquet columns' C apart, in one process: pyarrow
	# starts a thread of its allocator's, and a test that forks beside it (a process
	# pool) can leave the child waiting on a lock under the sanitizers
	cd $(SANITIZE_DIR) && ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		LD_PRELOAD="$$($(CC) -print-file-name=libasan.so) $$($(CC) -print-file-name=libubsan.so)" \
		$(SIDE) $(CURDIR)/$(BIN)/python -m pytest -p no:cacheprovider \
		tests/test_sorting.py tests/test_windows_c.py tests/test_parquet_columns.py \
		tests/test_parquet_buffers.py

# Coverage-guided fuzzing (atheris, pip's `lazyfun[fuzz]`; clang for the C engines):
# each reader's target (fuzz/readers.py, the source run: LAZYFUN_PURE=1), then each C
# engine's entry points (fuzz/engines.py) with the engines built by clang with libFuzzer's
# coverage, AddressSanitizer and UndefinedBehaviorSanitizer in a copy of the tree, each
# target FUZZ_SECONDS from its seed corpus in fuzz/corpus.  New inputs go to
# build/fuzz/corpus, a failing one to build/fuzz/findings (to become a regression test),
# each run's log to build/fuzz/logs; the executions of each target are printed at the end,
# and any finding fails.  `make test` only replays the seed corpus (tests/test_fuzz_corpus.py).
FUZZ_SECONDS ?= 60
FUZZ_DIR := build/fuzz
FUZZ_READERS := puzzle_line puzzle sdk ss marks fpuzzles sudokupad variant_json variant_link jsonl csv
FUZZ_ENGINES := forcing learning unique9 flow nine minlex
FUZZ_CC = clang -shared -fPIC -O1 -g -Wall -Wextra -Werror \
	-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
	-I"$(PY_INCLUDE)"
FUZZ_RUN = -max_total_time=$(FUZZ_SECONDS) -timeout=30 -rss_limit_mb=4096 -print_final_stats=1
fuzz: $(DEV)
	@$(BIN)/python -c 'import atheris' 2>/dev/null || $(call install,"atheris>=2.3")
	rm -rf $(FUZZ_DIR)
	mkdir -p $(FUZZ_DIR)/findings $(FUZZ_DIR)/logs
	cp -r lazyfun fuzz $(FUZZ_DIR)/
	find $(FUZZ_DIR) -name '*.so' -delete
	$(FUZZ_CC) lazyfun/sudoku/solving/learning_c/*.c \
		-o $(FUZZ_DIR)/lazyfun/sudoku/solving/_learning$(EXT_SUFFIX)
	$(FUZZ_CC) lazyfun/streams/sync/flow_c/*.c \
		-o $(FUZZ_DIR)/lazyfun/streams/sync/_flow$(EXT_SUFFIX)
	$(FUZZ_CC) lazyfun/sudoku/steps/forcing_c/*.c \
		-o $(FUZZ_DIR)/lazyfun/sudoku/steps/_forcing$(EXT_SUFFIX)
	$(FUZZ_CC) lazyfun/sudoku/solving/nine_c/*.c \
		-o $(FUZZ_DIR)/lazyfun/sudoku/solving/_nine$(EXT_SUFFIX)
	$(FUZZ_CC) lazyfun/sudoku/canon/minlex_c/*.c \
		-o $(FUZZ_DIR)/lazyfun/sudoku/canon/_minlex$(EXT_SUFFIX)
	@status=0; : > $(FUZZ_DIR)/executions.txt; \
	for target in $(FUZZ_READERS); do \
		mkdir -p $(FUZZ_DIR)/corpus/$$target; \
		LAZYFUN_PURE=1 $(BIN)/python -m fuzz.readers $$target $(FUZZ_DIR)/corpus/$$target \
			fuzz/corpus/$$target $(FUZZ_RUN) -artifact_prefix=$(FUZZ_DIR)/findings/$$target- \
			> $(FUZZ_DIR)/logs/$$target.txt 2>&1 || status=1; \
		echo "$$target: $$(grep -ho 'Done [0-9]* runs in [0-9]* second' $(FUZZ_DIR)/logs/$$target.txt)" \
			| tee -a $(FUZZ_DIR)/executions.txt; \
	done; \
	preload="$$($(BIN)/python -c 'import atheris; print(atheris.path())')/asan_with_fuzzer.so"; \
	for target in $(FUZZ_ENGINES); do \
		mkdir -p $(FUZZ_DIR)/corpus/$$target; \
		(cd $(FUZZ_DIR) && ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 \
			UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 LD_PRELOAD="$$preload" \
			$(CURDIR)/$(BIN)/python -m fuzz.engines $$target corpus/$$target \
			$(CURDIR)/fuzz/corpus/$$target $(FUZZ_RUN) -artifact_prefix=findings/$$target- \
			> logs/$$target.txt 2>&1) || status=1; \
		echo "$$target (C): $$(grep -ho 'Done [0-9]* runs in [0-9]* second' $(FUZZ_DIR)/logs/$$target.txt)" \
			| tee -a $(FUZZ_DIR)/executions.txt; \
	done; \
	ls $(FUZZ_DIR)/findings | sed 's/^/finding: /'; exit $$status

# An sdist and a wheel in dist/, built as a user's pip would (an isolated build); then
# each installed into a fresh environment (tests/test_dist.py): the wheel runs the demo,
# the sdist installs with no C compiler on PATH and runs from source.
dist: $(DEV)
	rm -rf dist
	$(BIN)/python -m build --outdir dist .
	$(BIN)/pytest -m dist tests/test_dist.py

# The long checks that `make test` (and so CI) leaves out: the tests marked slow.
# From source, the tests marked long_from_source or untraced are slow too (conftest.py).
# Then every hypothesis law with its whole budget (make test tries half: tests/budget.py),
# and the sanitizers' whole list (make test leaves out its three longest searches).
slow: TIMEOUT = 3600
slow: $(DEV)
	$(BIN)/pytest $(PARALLEL) -m slow tests
	LAZYFUN_PURE=1 $(BIN)/pytest $(PARALLEL) -m "long_from_source or untraced" tests
	LAZYFUN_THOROUGH=1 $(BIN)/pytest $(PARALLEL) -m "law and not slow" tests
	$(MAKE) --no-print-directory sanitize SANITIZE_ARGS=

bench: $(VENV)/.bench $(VENV)/.built
	$(BIN)/python -u -m benchmarks $(BENCH)

clean:
	rm -rf $(VENV) .nox build dist *.egg-info site .mypy_cache .ruff_cache .hypothesis .coverage
	find . -name '*.so' -not -path './$(VENV)/*' -delete
