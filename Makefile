# The two commands of the set-up contract: `make play` and `make test`.
# Both create .venv when it is missing and install the package into it.

PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip

.PHONY: play test install lint jstest bench vectors clean system-deps

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

install: $(PY)
	$(PIP) install --quiet -e '.[test]'

play: $(PY)
	$(PIP) install --quiet -e .
	$(VENV)/bin/rummykit serve

lint: install
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/ruff format --check src tests benchmarks
	$(VENV)/bin/mypy

system-deps:
	bash scripts/system-deps.sh

# the web table's pure modules (static/js: the hand's layout, the words, the view readers),
# tested by node's own test runner: no npm packages
jstest: system-deps
	node --test tests/js/

test: install system-deps lint jstest
	$(VENV)/bin/pytest -q -n 2 --dist loadgroup

vectors: install
	../shared/tools/check-vectors

bench: install
	$(PY) benchmarks/run.py

clean:
	rm -rf $(VENV) build src/*.egg-info src/rummykit/engine/*.so
