# Every target sets up .venv on first use; a fresh machine needs only python3, pip and make.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PIP    := $(BIN)/python -m pip install --quiet --disable-pip-version-check

SOURCES := lazyfun tests benchmarks examples

.PHONY: demo test lint typecheck unit slow bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.base: pyproject.toml | $(BIN)/python
	$(PIP) -e .
	touch $@

$(VENV)/.dev: pyproject.toml | $(BIN)/python
	$(PIP) -e '.[dev]'
	touch $@

$(VENV)/.bench: pyproject.toml | $(BIN)/python
	$(PIP) -e '.[dev,bench,plot]'
	touch $@

demo: $(VENV)/.base
	$(BIN)/lazyfun demo

test: lint typecheck unit

lint: $(VENV)/.dev
	$(BIN)/ruff check $(SOURCES)
	$(BIN)/ruff format --check $(SOURCES)

typecheck: $(VENV)/.dev
	$(BIN)/mypy --strict lazyfun tests examples

unit: $(VENV)/.dev
	$(BIN)/pytest

slow: $(VENV)/.dev
	$(BIN)/pytest -m slow tests

bench: $(VENV)/.bench
	$(BIN)/python -u -m benchmarks $(BENCH)

clean:
	rm -rf $(VENV) build *.egg-info site .mypy_cache .ruff_cache .hypothesis
