# Ahiko — the two commands: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# `make run` installs only what the site needs; the test toolchain (pytest, mypy, Playwright,
# pokerkit...) comes with `make test` / `make check` (STAMP).
RUN_STAMP := $(VENV)/.installed-run
# `make bench` adds the `bench` extra (socketify for bench/floor.py's uws floor, matplotlib
# for the plots); neither the site nor the test suite needs it.
BENCH_STAMP := $(VENV)/.installed-bench

.PHONY: run test check bench lint screenshots venv clean cluster

venv: $(STAMP)

$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[dev]'
	touch $(STAMP) $(RUN_STAMP)

$(RUN_STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e .
	touch $(RUN_STAMP)

$(BENCH_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[dev,bench]'
	touch $(BENCH_STAMP)

# The port: `make run PORT=8080` (or AHIKO_PORT=8080 make run).
run: $(RUN_STAMP)
	$(BIN)/ahiko admin migrate
	$(BIN)/ahiko serve $(if $(PORT),--port $(PORT))

test: $(STAMP)
	$(BIN)/python -m pytest -n 2 --dist loadgroup

# The fast inner loop: no browser, no PostgreSQL, no Redis or multi-process cluster, no slow batches.
check: $(STAMP)
	$(BIN)/python -m pytest -n 2 -q -m "not browser and not postgres and not slow and not cluster"

bench: $(BENCH_STAMP)
	$(BIN)/python bench/run_all.py

# A throwaway cluster on this machine (issue 14, docs/deploy.md): PostgreSQL, redis-server and
# two nodes, `make cluster PORTS=8001,8002 LEASE_MS=3000`; Ctrl-C stops it all.
cluster: $(STAMP)
	$(BIN)/python tools/cluster.py $(if $(PORTS),--ports $(PORTS)) $(if $(LEASE_MS),--lease-ms $(LEASE_MS))

screenshots: $(STAMP)
	AHIKO_SCREENSHOTS=docs/screenshots $(BIN)/python -m pytest -q tests/e2e

lint: $(STAMP)
	$(BIN)/ruff check src tests bench tools
	$(BIN)/ruff format --check src tests bench tools
	$(BIN)/mypy

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
