# Ahiko — the two commands: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test check bench lint screenshots venv clean

venv: $(STAMP)

$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/ahiko admin migrate
	$(BIN)/ahiko serve

test: $(STAMP)
	$(BIN)/python -m pytest -n 2 --dist loadgroup

# The fast inner loop: no browser, no PostgreSQL, no slow batches.
check: $(STAMP)
	$(BIN)/python -m pytest -n 2 -q -m "not browser and not postgres and not slow"

bench: $(STAMP)
	$(BIN)/python bench/run_all.py

screenshots: $(STAMP)
	AHIKO_SCREENSHOTS=docs/screenshots $(BIN)/python -m pytest -q tests/e2e

lint: $(STAMP)
	$(BIN)/ruff check src tests bench tools
	$(BIN)/ruff format --check src tests bench tools
	$(BIN)/mypy

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
