# Prolific: `make site` renders the demo content into Site/, `make test` runs the whole suite.
SWIFT ?= swift
PROLIFIC_RELEASE := .build/release/prolific
# The demo content is set on this day; `make site NOW=` renders at the current time instead.
NOW ?= 2026-11-22T12:00:00Z
NOW_FLAG := $(if $(NOW),--now $(NOW),)
ROUNDS ?= 600

.PHONY: all setup build release site test templates demo fairness clean

all: site

setup:
	@scripts/setup.sh

build: setup
	$(SWIFT) build

release: setup
	$(SWIFT) build -c release --product prolific

site: release
	$(PROLIFIC_RELEASE) check --content Content $(NOW_FLAG)
	$(PROLIFIC_RELEASE) build --content Content --out Site $(NOW_FLAG)
	@echo "Open Site/index.html in a browser."

test: setup
	$(SWIFT) build --build-tests
	$(SWIFT) test

# Re-embed Templates/ into the binary after editing them (a test fails while they differ).
templates:
	python3 scripts/embed-templates.py

# Regenerate the demo content by playing the game with the CLI.
demo: release
	PROLIFIC=$(PROLIFIC_RELEASE) scripts/make-demo.sh Content

# The fair tally against simulated attacks (docs/ranking.md keeps the table).
fairness: setup
	$(SWIFT) build -c release --product prolific-fairness
	.build/release/prolific-fairness $(ROUNDS)

clean:
	rm -rf .build Site
