# Two commands on a fresh machine:
#   make demo   set up .venv, install devicelens (+ its JupyterLab panel) and open the quickstart
#   make test   set up the same .venv and run every test (Python, TypeScript, real browser)
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip
BIN := $(abspath $(VENV)/bin)
export PATH := $(BIN):$(PATH)
TORCH := torch==2.13.0
PORT ?= 8888

.PHONY: demo test setup test-py test-js test-ui bench corpus lint clean screenshots fuzz

$(PY):
	python3 -m venv $(VENV)
	$(PIP) install -q --upgrade pip

# Dev environment: pinned requirements, torch unless one is importable, then the package itself
# (pip install builds the labextension through hatch-jupyter-builder; users need no Node).
$(VENV)/.stamp-setup: $(PY) requirements-dev.txt pyproject.toml package.json yarn.lock tsconfig.json \
		$(wildcard labextension/src/* labextension/style/* labextension/schema/*)
	$(PY) -c "import torch" 2>/dev/null || $(PIP) install -q $(TORCH)
	$(PIP) install -q -r requirements-dev.txt
	$(PIP) install -q --no-build-isolation -e ".[test]"
	touch $@

setup: $(VENV)/.stamp-setup

demo: setup
	@echo "Starting JupyterLab on http://127.0.0.1:$(PORT) — open the URL with the token printed below."
	$(BIN)/jupyter lab --ip=127.0.0.1 --port=$(PORT) --no-browser \
		--ServerApp.allow_root=True notebooks/quickstart.ipynb

test: setup test-py test-js test-ui

# NB: every corpus case's self-test (reproduces its bug, its reference fix works) and the whole
# corpus's floors run in `make corpus`; here the floors of a seventh of it (test_corpus_sample.py)
test-py: setup
	$(PY) -m pytest -q -p no:cacheprovider -m "not corpus" tests

# The property-based fuzz suite at 20x its `make test` size (11,000 examples), with its figures.
fuzz: setup
	DEVICELENS_FUZZ_SCALE=20 $(PY) -m pytest -q -p no:cacheprovider tests/fuzz

test-js: setup
	@test -d node_modules || jlpm install
	jlpm test

test-ui: setup
	@if [ -f ui-tests/package.json ]; then $(MAKE) -C ui-tests test; fi

# Refresh the README's screenshots (docs/img) from the browser tests; look at them before committing.
screenshots: setup
	$(MAKE) -C ui-tests screenshots

bench: setup
	$(PY) benchmarks/run_all.py

# Diagnosis accuracy on the corpus of real bugs (tests/corpus): every case's self-test, the per-case
# and per-family table, and the whole corpus's floors checked on that same run.
# Each case runs in a child forked from a zygote that imported torch once (checked here against
# fresh interpreters, field for field); add ARGS=--fresh for a new interpreter per case (4x the
# CPU, the same results: docs/testing.md).
corpus: setup
	$(PY) -m pytest -q -p no:cacheprovider tests/corpus/test_corpus_valid.py \
		tests/corpus/test_corpus_zygote.py
	@mkdir -p build
	$(PY) -m tests.corpus.scorer --json build/corpus.json $(ARGS)
	DEVICELENS_CORPUS_RESULTS=build/corpus.json $(PY) -m pytest -q -p no:cacheprovider \
		tests/corpus/test_corpus_score.py

lint: setup
	$(PY) -m ruff check src tests benchmarks
	$(PY) -m mypy

clean:
	rm -rf $(VENV) node_modules src/devicelens/labextension lib ui-tests/node_modules
