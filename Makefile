# Prolific: `make site` renders the demo content into Site/, `make test` runs the whole suite: the
# Swift tests, then the real-client checks of the rendered demo (`make check-site`, docs/checks.md).
SWIFT ?= swift
# SwiftPM's build folder (`make check-site SCRATCH=.build-mine` keeps a second one apart).
SCRATCH ?= .build
PROLIFIC_RELEASE := $(SCRATCH)/release/prolific
# The demo content is set on this day; `make site NOW=` renders at the current time instead.
NOW ?= 2026-11-22T12:00:00Z
NOW_FLAG := $(if $(NOW),--now $(NOW),)
ROUNDS ?= 600
# check-site renders the demo here (emptied first) and puts its screenshots there.
CHECK_SITE_DIR ?= .build/check-site/Site
SHOTS_DIR ?= .build/site-shots
# `make install` puts bin/prolific, its man page and shell completions under $(DESTDIR)$(PREFIX);
# BINARY=path installs a prolific built elsewhere instead of building the release one.
PREFIX ?= /usr/local
DESTDIR ?=
BINARY ?=

.PHONY: all setup check-deps build release site test check-site templates demo fairness bench bench-smoke clean install uninstall

all: site

# Build dependencies (libcmark); a no-op when present.
setup:
	@bash scripts/setup.sh

# The tools of check-site (Chromium, linkchecker, Java, EPUBCheck, a Python venv); a no-op when present.
check-deps:
	@bash scripts/install-check-deps.sh

build: setup
	$(SWIFT) build --scratch-path $(SCRATCH)

release: setup
	$(SWIFT) build -c release --scratch-path $(SCRATCH) --product prolific

site: release
	$(PROLIFIC_RELEASE) check --content Content $(NOW_FLAG)
	$(PROLIFIC_RELEASE) build --content Content --out Site $(NOW_FLAG)
	@echo "Open Site/index.html in a browser."

# The Swift tests, then the checks of the rendered demo.
test: setup check-deps
	$(SWIFT) build --scratch-path $(SCRATCH) --build-tests
	$(SWIFT) test --scratch-path $(SCRATCH)
	@$(MAKE) --no-print-directory check-site
	@$(MAKE) --no-print-directory bench-smoke

# Renders the demo into CHECK_SITE_DIR and checks it with real clients: the Nu HTML checker,
# linkchecker, xmllint, feedparser, icalendar, EPUBCheck, axe-core and screenshots in Chromium.
check-site: release check-deps
	rm -rf $(CHECK_SITE_DIR)
	$(PROLIFIC_RELEASE) build --content Content --out $(CHECK_SITE_DIR) $(NOW_FLAG)
	bash scripts/check-site.sh $(CHECK_SITE_DIR) $(SHOTS_DIR)

# Re-embed Templates/ into the binary after editing them (a test fails while they differ).
templates:
	python3 scripts/embed-templates.py

# Regenerate the demo content by playing the game with the CLI.
demo: release
	PROLIFIC=$(PROLIFIC_RELEASE) scripts/make-demo.sh Content

# The fair tally against simulated attacks (docs/ranking.md keeps the table).
fairness: setup
	$(SWIFT) build -c release --scratch-path $(SCRATCH) --product prolific-fairness
	$(SCRATCH)/release/prolific-fairness $(ROUNDS)

# Timings of build, no-op and incremental rebuilds, submit, vote, close and check on synthetic
# content, small → large (docs/performance.md keeps the table). Benchmarks are never tests.
BENCH_SIZES ?= small,medium,large
BENCH_RUNS ?= 3
bench: setup
	$(SWIFT) build -c release --scratch-path $(SCRATCH) --product prolific
	$(SWIFT) build -c release --scratch-path $(SCRATCH) --product prolific-generate
	SCRATCH=$(SCRATCH) python3 scripts/bench.py --sizes $(BENCH_SIZES) --runs $(BENCH_RUNS) --out docs/performance.md

# One run on the small corpus: proves the harness works (CI), measures nothing worth keeping.
bench-smoke: setup
	$(SWIFT) build -c release --scratch-path $(SCRATCH) --product prolific
	$(SWIFT) build -c release --scratch-path $(SCRATCH) --product prolific-generate
	SCRATCH=$(SCRATCH) python3 scripts/bench.py --smoke

# The binary, prolific(1) and bash, zsh and fish completions, generated from the argument parser.
install: $(if $(BINARY),,release)
	bash scripts/install.sh "$(or $(BINARY),$(PROLIFIC_RELEASE))" "$(DESTDIR)" "$(PREFIX)"

uninstall:
	bash scripts/install.sh --uninstall "$(DESTDIR)" "$(PREFIX)"

clean:
	rm -rf .build Site
