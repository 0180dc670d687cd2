# Every target sets up .venv on first use; a fresh machine needs only python3, pip and make.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PIP    := $(BIN)/python -m pip install --quiet --disable-pip-version-check

SOURCES := lazyfun tests benchmarks examples docs/hooks setup.py conftest.py
# Compiled with mypyc on install (listed in lazyfun/compiled.py); a change to one reinstalls.
COMPILED := $(shell $(PYTHON) setup.py --compiled-sources)
C_SOURCES := $(shell $(PYTHON) setup.py --c-sources)
BUILD    := pyproject.toml setup.py $(COMPILED) $(C_SOURCES)
SAY_BUILD = $(BIN)/python -c 'from lazyfun.compiled import describe; print(describe())'

.PHONY: demo test test-all lint typecheck unit docs docs-figures slow bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.base: $(BUILD) | $(BIN)/python
	$(PIP) -e .
	$(SAY_BUILD)
	touch $@

$(VENV)/.dev: $(BUILD) | $(BIN)/python
	$(PIP) -e '.[dev]'
	$(SAY_BUILD)
	touch $@

$(VENV)/.bench: $(BUILD) | $(BIN)/python
	$(PIP) -e '.[dev,bench,plot]'
	$(SAY_BUILD)
	touch $@

demo: $(VENV)/.base
	$(BIN)/lazyfun demo

test: lint typecheck unit docs

lint: $(VENV)/.dev
	$(BIN)/ruff check $(SOURCES)
	$(BIN)/ruff format --check $(SOURCES)
	$(BIN)/lint-imports --no-cache

typecheck: $(VENV)/.dev
	$(BIN)/mypy --strict lazyfun tests examples docs/hooks setup.py conftest.py
	$(BIN)/python -m mypy.stubtest --mypy-config-file pyproject.toml lazyfun.vocab
	@if $(BIN)/python -c 'import lazyfun.sudoku._learning' 2>/dev/null; then \
		$(BIN)/python -m mypy.stubtest --mypy-config-file pyproject.toml lazyfun.sudoku._learning; \
	else echo "stubtest: lazyfun.sudoku._learning not built here, skipped"; fi

# Twice: as installed (compiled), then the compiled modules' own source; the
# coverage of both passes together must stay above the floor.
COVERAGE_FLOOR := 94
unit: $(VENV)/.dev
	$(BIN)/pytest --cov --cov-report=
	LAZYFUN_PURE=1 $(BIN)/pytest --cov --cov-append --cov-fail-under=$(COVERAGE_FLOOR) \
		tests/sudoku tests/csp tests/test_core.py tests/test_lazylist.py tests/test_compiled.py $(COMPILED)

# The user guide and API reference; --strict turns broken links into failures.
docs: $(VENV)/.dev
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

# Regenerate the charts the docs show (the laziness study).
docs-figures: $(VENV)/.dev
	$(BIN)/lazyfun study queens --from 4 --to 12 --run-limit 7 --plot docs/queens-study.png
	$(BIN)/lazyfun study sudoku --plot docs/sudoku-study.png

# The unit tests on every other Python this machine has (3.12 and 3.13 where
# found), each in its own venv: parallel/ takes a different path from 3.12 on.
PYENV_PYTHONS = $(wildcard $(HOME)/.pyenv/versions/$(1).*/bin/python$(1))
test-all: test
	@for v in 3.12 3.13; do \
		py=; for c in python$$v $(call PYENV_PYTHONS,3.12) $(call PYENV_PYTHONS,3.13); do \
			case $$c in *python$$v) $$c -c pass 2>/dev/null && py=$$c && break;; esac; done; \
		if [ -z "$$py" ]; then echo "== Python $$v: not on this machine, skipped"; continue; fi; \
		echo "== Python $$v ($$py)"; \
		[ -x .venv-$$v/bin/python ] || $$py -m venv .venv-$$v || exit 1; \
		.venv-$$v/bin/python -m pip install --quiet --disable-pip-version-check -e '.[dev]' || exit 1; \
		.venv-$$v/bin/pytest || exit 1; \
	done

slow: $(VENV)/.dev
	$(BIN)/pytest -m slow tests

bench: $(VENV)/.bench
	$(BIN)/python -u -m benchmarks $(BENCH)

clean:
	rm -rf $(VENV) .venv-3.* build *.egg-info site .mypy_cache .ruff_cache .hypothesis .coverage
	find . -name '*.so' -not -path './$(VENV)/*' -delete
