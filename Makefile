# Cotas: the two commands a newcomer needs are `make run` and `make test`.
# The interpreter the venv is made from: the system's CPython (/usr/bin/python3) where it is 3.11 or newer and
# can make a venv (Debian's needs python3-venv), else the first python3 on PATH; `make install PYTHON=...`
# chooses another. Debian builds its CPython with profile-guided and link-time optimisation, which a
# self-compiled one (pyenv's default build) lacks: three CPU-bound test modules in one process took a median
# 10% less time with it (0-21% over eight alternated pairs, on a host whose speed drifted) and a small
# pure-Python probe 12% less. A venv made from another interpreter is made again.
ifndef PYTHON
PYTHON := $(shell for candidate in /usr/bin/python3 python3; do \
	$$candidate -c 'import sys, ensurepip, venv; sys.exit(sys.version_info < (3, 11))' 2>/dev/null \
	&& { command -v $$candidate; exit; }; done; echo python3)
endif
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
# The demo organisation (`make run DEMO=angra`): one installation serves one organisation.
DEMO ?= santa-maria
STAMP := $(VENV)/.install-stamp

.PHONY: install run FORCE test lint format migrate demo bench bench-municipal bench-import bench-lists bench-pdf bench-public clean

install: $(STAMP) .env

# The venv, made from PYTHON; one made from another interpreter (or whose interpreter no longer runs) is made
# again. Checked on every make; the file changes only when the venv is made, so the stamp below installs the
# requirements only then or when they change.
$(VENV)/pyvenv.cfg: FORCE
	@wanted="$$($(PYTHON) -c 'import os, sys; print(os.path.realpath(sys.executable))')"; \
	if [ -z "$$wanted" ]; then echo "$(PYTHON) does not run: the venv is left as it is" >&2; exit 1; fi; \
	made_from="$$($(BIN)/python -c 'import os, sys; print(os.path.realpath(sys._base_executable))' 2>/dev/null)"; \
	if [ "$$made_from" != "$$wanted" ]; then \
		if [ -e $@ ]; then echo "a venv made from $${made_from:-an interpreter that no longer runs}: made again"; fi; \
		rm -rf $(VENV); \
		echo "$(PYTHON) -m venv $(VENV)"; $(PYTHON) -m venv $(VENV); \
	fi

FORCE:

$(STAMP): requirements.txt requirements-dev.txt $(VENV)/pyvenv.cfg
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $(STAMP)

# The development settings config/settings.py reads, written once; production sets its own environment
# (see README) and never runs `make install`.
.env:
	@printf '# Development only (written by make install; never used in production).\nDEBUG=1\nSECRET_KEY=%s\n' \
		"$$($(PYTHON) -c 'import secrets; print(secrets.token_urlsafe(50))')" > $@
	@echo "wrote $@ (development settings)"

migrate: install
	$(BIN)/python manage.py migrate --noinput

# PORT too: the demo's e-mails and PDFs link to the server `make run` starts (PUBLIC_BASE_URL follows PORT
# under DEBUG).
demo: migrate
	PORT=$(PORT) $(BIN)/python manage.py seed_demo --organization $(DEMO)

# The task worker (notices by e-mail, long lists' PDFs, large imports) runs beside the server; e-mail goes to
# private/mail/ in development.
run: demo
	@echo ""
	@echo "Cotas em http://127.0.0.1:$(PORT)/  (Ctrl+C para parar); mensagens em private/mail/"
	@echo ""
	PORT=$(PORT) $(BIN)/python manage.py db_worker & worker=$$!; trap "kill $$worker" EXIT INT TERM; \
		PORT=$(PORT) $(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

# The suite over every core (pytest-xdist): each worker has its own test database (SQLite in memory;
# test_<name>_gw0, _gw1… on PostgreSQL), its own Chromium and its own live server on a free port. Tests go
# to whichever worker is free, three at most queued for each (tests/conftest.py), in pytest-django's order,
# so that on each worker too every transactional test (they end with a flush) runs after the others; a
# module's rows built once (tests/module_data.py) are built once per worker that runs its tests.
# `make test PYTEST_WORKERS=0` runs serially in one process; PYTEST_ARGS adds pytest arguments
# (`make test PYTEST_ARGS="tests/contests -x"`).
# On SQLite each worker copies the migrated database the previous run kept (tests/migrated_db.py) while the
# migrations and models are unchanged; PDFs of the same HTML are rendered once, then read by both workers and
# later runs from .pytest_cache/rendered-pdfs/ (tests/rendered_pdfs.py; the builders' numbers and the
# verification codes restart at each test, so a test prints the same acts whichever worker runs it);
# the demo (seed_demo) is built once per starting rows, code and day, then copied (tests/demo_snapshot.py);
# axe's answer for a page is kept for the same document, styles and browser (tests/axe.py; COTAS_TEST_AXE=1
# runs axe on every page, as a clean checkout does).
# CI adds PYTEST_ARGS=--hypothesis-profile=thorough (twice the form fuzz's generated examples).
PYTEST_WORKERS ?= auto
# PYTHONDONTWRITEBYTECODE emptied: where the environment sets it, pytest cannot keep its rewritten test
# modules and each worker rewrote all of them on every run (7 s of CPU each).
test: install
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist load $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

format: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# Benchmarks print the figures the issues ask for. The municipal ones need PostgreSQL: a fresh
# database in BENCH_DATABASE_URL (default below, created and dropped around the run).
BENCH_DB ?= cotas_bench
# Byte-compiled modules kept, as a deployment keeps them: where the environment sets PYTHONDONTWRITEBYTECODE,
# each bench's start recompiled every module changed since its last compiled copy (0.17 s of an import's).
BENCH_PY := PYTHONDONTWRITEBYTECODE= $(BIN)/python
BENCH_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/$(BENCH_DB)

bench: install
	$(BENCH_PY) bench/allocation.py

bench-municipal: install
	dropdb -h 127.0.0.1 -U postgres --if-exists $(BENCH_DB); createdb -h 127.0.0.1 -U postgres $(BENCH_DB)
	DATABASE_URL=$(BENCH_DATABASE_URL) $(BENCH_PY) bench/municipal.py; \
		rc=$$?; dropdb -h 127.0.0.1 -U postgres --if-exists $(BENCH_DB); exit $$rc

# Import 100,000 registrations through the command (issue 24: 5 s); BENCH_ARGS=--profile prints the
# command's cProfile.
bench-import: install
	dropdb -h 127.0.0.1 -U postgres --if-exists $(BENCH_DB); createdb -h 127.0.0.1 -U postgres $(BENCH_DB)
	DATABASE_URL=$(BENCH_DATABASE_URL) $(BENCH_PY) bench/municipal_import.py $(BENCH_ARGS); \
		rc=$$?; dropdb -h 127.0.0.1 -U postgres --if-exists $(BENCH_DB); exit $$rc

# Compute and publish the lists of 100,000 registrations (issue 24: ≤ 3 s), in its own database so that it
# runs beside the other benchmarks.
BENCH_LISTS_DB ?= cotas_bench_lists
bench-lists: install
	dropdb -h 127.0.0.1 -U postgres --if-exists $(BENCH_LISTS_DB); createdb -h 127.0.0.1 -U postgres $(BENCH_LISTS_DB)
	DATABASE_URL=postgres://postgres@127.0.0.1:5432/$(BENCH_LISTS_DB) $(BENCH_PY) bench/lists.py $(BENCH_ARGS); \
		rc=$$?; dropdb -h 127.0.0.1 -U postgres --if-exists $(BENCH_LISTS_DB); exit $$rc

# Result day on the public portal: 100,000 registrations, gunicorn with 2 workers, 50 clients.
bench-public: install
	dropdb -h 127.0.0.1 -U postgres --if-exists $(BENCH_DB); createdb -h 127.0.0.1 -U postgres $(BENCH_DB)
	DATABASE_URL=$(BENCH_DATABASE_URL) $(BENCH_PY) bench/public_load.py; \
		rc=$$?; dropdb -h 127.0.0.1 -U postgres --if-exists $(BENCH_DB); exit $$rc

bench-uploads: install
	$(DEV_ENV) $(BENCH_PY) bench/crafted_uploads.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache .hypothesis

# List of 10,000 candidates as PDF through the task queue (a real db_worker) while gunicorn answers
# staff pages: the PDF's time, p50/p95 of the pages. A temporary SQLite database, or PostgreSQL when
# BENCH_DATABASE_URL is set in the environment (a fresh database).
bench-pdf: install
	$(BENCH_PY) bench/pdf.py
