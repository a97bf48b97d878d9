# Two commands for a newcomer: `make run` starts the app, `make test` runs every check (the docs
# build included; `make docs` builds the site alone).
# Each creates the virtual environment and installs what it needs (Python packages from
# requirements*.txt, dtcore itself as an editable package with its dask extra, Debian packages through
# scripts/apt-ensure).
VENV   ?= .venv
PY     := $(VENV)/bin/python
PORT   ?= 8501
APP_DEBS  := graphviz fonts-noto-cjk
TEST_DEBS := graphviz fonts-noto-cjk chromium weka

.PHONY: run test test-fast lint docs format bench venv clean

$(VENV)/.runtime: requirements.txt pyproject.toml
	@command -v python3 >/dev/null || scripts/apt-ensure python3
	@python3 -c 'import ensurepip, venv' 2>/dev/null || scripts/apt-ensure python3-venv
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements.txt
	$(PY) -m pip install -q -e '.[dask]'
	touch $@

$(VENV)/.docs: $(VENV)/.runtime requirements-docs.txt
	$(PY) -m pip install -q -r requirements-docs.txt
	touch $@

$(VENV)/.test: $(VENV)/.runtime requirements-test.txt requirements-docs.txt
	$(PY) -m pip install -q -r requirements-test.txt
	touch $@

venv: $(VENV)/.runtime

run: $(VENV)/.runtime
	@scripts/apt-ensure --optional $(APP_DEBS)
	$(PY) -m streamlit run app.py --server.port $(PORT) --server.headless true --browser.gatherUsageStats false

# lint and types first: they take seconds and fail on any finding
lint: $(VENV)/.test
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

# the documentation site into site/ (git-ignored), offline; --strict: any warning (a broken link,
# a missing picture or heading, an unknown API name) fails the build. NO_MKDOCS_2_WARNING silences
# the Material theme's banner about its successor.
docs: $(VENV)/.docs
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --strict

# every test; PYTHONDONTWRITEBYTECODE cleared so that a second run reuses the rewritten test
# modules (pytest's assertion rewriting costs about half of collection without that cache)
test: lint docs
	@scripts/apt-ensure $(TEST_DEBS)
	PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -n 2 -q --durations=15

# the quick loop: no browser, no Streamlit pages, no slow tests, no Weka oracle
test-fast: lint
	PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -n 2 -q -m "not browser and not app and not slow and not oracle"

format: $(VENV)/.test
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

bench: $(VENV)/.test
	$(PY) -m bench.bench_cart
	$(PY) -m bench.bench_c45
	$(PY) -m bench.bench_hist
	$(PY) -m bench.bench_library
	$(PY) -m bench.bench_app
	@scripts/apt-ensure graphviz chromium
	$(PY) -m bench.bench_browser

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache site
