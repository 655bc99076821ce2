# The README's two commands: `make run` and `make test`. Everything they need is installed here.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CHROMIUM := /usr/bin/chromium-headless-shell

.PHONY: install run test chromium bench clean

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

chromium:
	@test -x $(CHROMIUM) || { \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium-headless-shell >/dev/null; }

run: install
	$(BIN)/flask --app wsgi serve

test: install chromium
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -q -n 3 --dist loadfile --no-loadscope-reorder  # a test file per worker; a third fills the waits on served processes

bench: install
	$(BIN)/pip install --quiet -e '.[test,bench]'
	$(BIN)/python -m bench.run

clean:
	rm -rf $(VENV) var bench/data
