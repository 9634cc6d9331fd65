# Prolific: `make site` renders the demo content into Site/, `make test` runs the whole suite: the
# Swift tests, then the real-client checks of the rendered demo (`make check-site`, docs/checks.md).
SWIFT ?= swift
# SwiftPM's build folder (`make check-site SCRATCH=.build-mine` keeps a second one apart).
SCRATCH ?= .build
PROLIFIC_RELEASE := $(SCRATCH)/release/prolific
# Release builds link Swift's runtime and Foundation into the binary: a big build takes a tenth
# less CPU, a command starts in half the time (docs/performance.md). Every release build here
# takes the same flags, because SwiftPM compiles every module again when they change. The link
# prints one warning from the linker, that Foundation's own code uses mktemp: harmless.
RELEASE_BUILD = $(SWIFT) build -c release --static-swift-stdlib --scratch-path $(SCRATCH)
# The demo content is set on this day; `make site NOW=` renders at the current time instead.
NOW ?= 2026-11-22T12:00:00Z
NOW_FLAG := $(if $(NOW),--now $(NOW),)
ROUNDS ?= 600
# check-site renders the demo here (emptied first) and puts its screenshots there.
CHECK_SITE_DIR ?= .build/check-site/Site
SHOTS_DIR ?= .build/site-shots
# `make install` puts bin/prolific and bin/prolific-serve, the man page and shell completions under
# $(DESTDIR)$(PREFIX); BINARY=path installs a prolific built elsewhere (with the prolific-serve
# beside it) instead of building the release ones.
PREFIX ?= /usr/local
DESTDIR ?=
BINARY ?=

.PHONY: all setup check-deps build release site test check-site templates demo fairness bench bench-hugo bench-smoke test-sanitize fuzz fuzz-smoke clean install uninstall stress check-demo

all: site

# Build dependencies (libcmark); a no-op when present.
setup:
	@bash scripts/setup.sh

# The tools of check-site (Chromium, linkchecker, Java, EPUBCheck, a Python venv); a no-op when present.
check-deps:
	@bash scripts/install-check-deps.sh

build: setup
	$(SWIFT) build --scratch-path $(SCRATCH)

# prolific, and prolific-serve beside it, which `prolific serve` runs.
release: setup
	$(RELEASE_BUILD) --product prolific
	$(RELEASE_BUILD) --product prolific-serve

site: release
	$(PROLIFIC_RELEASE) check --content Content $(NOW_FLAG)
	$(PROLIFIC_RELEASE) build --content Content --out Site $(NOW_FLAG)
	@echo "Open Site/index.html in a browser."

# The Swift tests, then the checks of the rendered demo.
test: setup check-deps
	$(SWIFT) build --scratch-path $(SCRATCH) --build-tests
	$(SWIFT) test --scratch-path $(SCRATCH)
	@$(MAKE) --no-print-directory check-site
	@$(MAKE) --no-print-directory check-demo
	@$(MAKE) --no-print-directory bench-smoke
	@$(MAKE) --no-print-directory fuzz-smoke

# The long crash, concurrency and hostile-input runs (`make test` runs short ones): hundreds of
# SIGKILLs per command, 8 processes × 200 operations (docs/reliability.md).
stress: setup
	PROLIFIC_STRESS=1 $(SWIFT) test --scratch-path $(SCRATCH) --filter 'CrashSafety|Concurrency|HostileInput'

# The whole suite under AddressSanitizer, then ThreadSanitizer, each in its own build folder
# (docs/reliability.md).
# LeakSanitizer skips what Foundation, XCTest and libxml2 never free (scripts/sanitizers/lsan.supp).
LSAN_OPTIONS_PROLIFIC := suppressions=$(CURDIR)/scripts/sanitizers/lsan.supp:print_suppressions=0
test-sanitize: setup
	$(SWIFT) build --scratch-path $(SCRATCH)-asan --build-tests --sanitize=address
	LSAN_OPTIONS=$(LSAN_OPTIONS_PROLIFIC) $(SWIFT) test --scratch-path $(SCRATCH)-asan --skip-build --sanitize=address
	$(SWIFT) build --scratch-path $(SCRATCH)-tsan --build-tests --sanitize=thread
	$(SWIFT) test --scratch-path $(SCRATCH)-tsan --skip-build --sanitize=thread

# libFuzzer on the content loaders and the identifier and time parsers (Sources/Fuzz/,
# docs/reliability.md): FUZZ_RUNS executions per target, each from the seeds in Tests/Fuzz/Corpus/
# plus what earlier runs found, kept in FUZZ_SCRATCH. Exits 1 on a crash, sanitizer report,
# broken property, timeout or out-of-memory; the input is saved under $(FUZZ_SCRATCH)/fuzz/artifacts/.
FUZZ_SCRATCH ?= .build-fuzz
FUZZ_RUNS ?= 10000000
FUZZ_SMOKE_RUNS ?= 30000
fuzz: setup
	FUZZ_SCRATCH=$(FUZZ_SCRATCH) SWIFT=$(SWIFT) bash scripts/fuzz.sh run $(FUZZ_RUNS)

# A few tens of thousands of executions per target: proves the harnesses build and run (CI).
fuzz-smoke: setup
	FUZZ_SCRATCH=$(FUZZ_SCRATCH) SWIFT=$(SWIFT) bash scripts/fuzz.sh run $(FUZZ_SMOKE_RUNS)

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

# Content/ is what `make demo` makes with this prolific: the demo shows what `close` writes now
# (seals, ballots' records), not what an older one wrote.
check-demo: release
	@PROLIFIC=$(PROLIFIC_RELEASE) bash scripts/check-demo.sh $(SCRATCH)/check-demo

# The fair tally against simulated attacks (docs/ranking.md keeps the table).
fairness: setup
	$(RELEASE_BUILD) --product prolific-fairness
	$(SCRATCH)/release/prolific-fairness $(ROUNDS)

# Timings of build, no-op and incremental rebuilds, submit, vote, close and check on synthetic
# content, small → large (docs/performance.md keeps the table). Benchmarks are never tests.
BENCH_SIZES ?= small,medium,large
BENCH_RUNS ?= 3
bench: setup
	$(RELEASE_BUILD) --product prolific
	$(RELEASE_BUILD) --product prolific-generate
	SCRATCH=$(SCRATCH) python3 scripts/bench.py --sizes $(BENCH_SIZES) --runs $(BENCH_RUNS) --out docs/performance.md

# Hugo 0.111 (Debian bookworm's, the issue's reference) building an equivalent site from the bench's
# corpora (docs/performance.md, "Hugo on the same corpus"); `make bench` generates them first, in
# .build/bench whatever SCRATCH is.
HUGO_SIZES ?= medium,large
bench-hugo:
	@command -v hugo >/dev/null 2>&1 || { echo "bench-hugo: installing hugo" >&2; \
	  sudo=$$( [ "$$(id -u)" -ne 0 ] && echo sudo ); \
	  $$sudo apt-get update -qq && $$sudo apt-get install -y -qq hugo >/dev/null; }
	@for size in $$(echo $(HUGO_SIZES) | tr , ' '); do \
	  test -f .build/bench/$$size/Content/prolific.yml || { echo "bench-hugo: no $$size corpus: run make bench first" >&2; exit 1; }; \
	  python3 scripts/hugo_reference.py .build/bench/$$size/Content .build/bench/hugo/$$size || exit 1; \
	done

# One run on the small corpus: proves the harness works (CI), measures nothing worth keeping.
bench-smoke: setup
	$(RELEASE_BUILD) --product prolific
	$(RELEASE_BUILD) --product prolific-generate
	SCRATCH=$(SCRATCH) python3 scripts/bench.py --smoke

# The binaries (prolific and prolific-serve, taken from beside BINARY when it is given), prolific(1)
# and bash, zsh and fish completions, generated from the argument parser.
install: $(if $(BINARY),,release)
	bash scripts/install.sh "$(or $(BINARY),$(PROLIFIC_RELEASE))" "$(DESTDIR)" "$(PREFIX)"

uninstall:
	bash scripts/install.sh --uninstall "$(DESTDIR)" "$(PREFIX)"

clean:
	rm -rf .build Site
