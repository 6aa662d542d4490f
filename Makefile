# gridlag build, test and fuzz targets. Run `make help` for the list.

GO       ?= go
GOFMT    ?= gofmt
BIN      := bin/gridlag
ARGS     ?=
FUZZTIME ?= 60s

# The race detector needs cgo, hence a C compiler. Without one, cgo is
# turned off (go vet and go test would fail to build) and the tests run
# without -race, saying so.
CC_NAME := $(shell $(GO) env CC)
ifeq ($(shell [ "$$($(GO) env CGO_ENABLED)" = 1 ] && command -v "$(CC_NAME)" >/dev/null 2>&1 && echo yes),yes)
RACE := -race
else
RACE :=
export CGO_ENABLED := 0
endif

SOAK     ?= 10m
LOAD_N    ?= 1000
LOAD_MAP  ?= 1024x1024
LOAD_TIME ?= 15s
LOAD_PORT ?= 7790
# STAMP names the commit in `gridlag version` and the start line.
STAMP     ?= $(shell git describe --always --dirty --tags 2>/dev/null)

# The web page (gridlag -web): xterm.js and the page's script, bundled by
# npm into front/web/dist, which is committed and which go build embeds in
# the binary: building gridlag needs no npm (go install works). make web
# rebuilds the bundle after a change to the page's sources or lockfile
# (npm ci when the lockfile is newer than what it installed); make
# web-check rebuilds it aside and fails if it differs from the one
# committed, which make test runs when npm is installed (CI installs it),
# and a Go test checks dist/sources.sha256 against the sources without npm.
NPM      ?= npm
WEB_DIST := front/web/dist/gridlag.js
WEB_SRC  := $(wildcard front/web/page/*.js front/web/page/*.css) front/web/package.json front/web/package-lock.json
ifeq ($(shell command -v $(NPM) >/dev/null 2>&1 && echo yes),yes)
WEB_CHECK := web-check
else
WEB_CHECK := web-no-npm
endif

.PHONY: all help build run test fuzz bench soak class load scale clean web web-check web-no-npm

all: build

help:
	@echo 'make build                 build $(BIN) (the web page'"'"'s bundle is committed: no npm needed)'
	@echo 'make web                   rebuild the web page'"'"'s bundle (front/web/dist) with npm, after changing its sources'
	@echo 'make web-check             fail if the committed bundle differs from its sources, rebuilt aside (needs npm)'
	@echo 'make run ARGS="..."        build, then start a local server and the terminal client'
	@echo '                           e.g. make run ARGS="-latency 250ms"'
	@echo 'make test                  gofmt check, go vet, go test -race'
	@echo 'make fuzz FUZZTIME=60s     fuzz the protocol decoder, recordings, traces and the input of SSH and web sessions'
	@echo 'make bench                 run the benchmarks'
	@echo 'make soak SOAK=10m         run the server under abuse with an honest player, then print what it holds'
	@echo 'make class                 a class of 40 behind one address in real browsers, with and without the class code'
	@echo 'make load LOAD_N=3000      a server on core 0 and gridlag load on core 1: the scale figures of one run'
	@echo '                           (LOAD_MAP=1024x1024 LOAD_TIME=15s LOAD_FLAGS="-ramp 20s" ...)'
	@echo 'make scale                 a static binary and ../shared/device/scale.sh in .scale/, for a machine with many cores'
	@echo '                           (then: bash .scale/scale.sh .scale/gridlag 10000:1024x1024:0-1 ...)'
	@echo 'make clean                 remove build output'

build:
	$(GO) build -ldflags "-X main.stamp=$(STAMP)" -o $(BIN) ./cmd/gridlag

web: $(WEB_DIST)

front/web/node_modules/.package-lock.json: front/web/package-lock.json
	cd front/web && $(NPM) ci --no-audit --no-fund --ignore-scripts

$(WEB_DIST): front/web/node_modules/.package-lock.json $(WEB_SRC)
	cd front/web && $(NPM) run build

web-check: front/web/node_modules/.package-lock.json
	@out=$$(mktemp -d) && trap 'rm -rf "$$out"' EXIT && \
	(cd front/web && OUT="$$out" $(NPM) run --silent build) && \
	for f in gridlag.js gridlag.css sources.sha256; do \
		if ! cmp -s "$$out/$$f" front/web/dist/$$f; then \
			echo "web-check: front/web/dist/$$f differs from what its sources build: run make web and commit front/web/dist"; exit 1; \
		fi; \
	done; echo "web-check: the committed bundle (front/web/dist) matches its sources"

web-no-npm:
	@echo "note: $(NPM) is not installed: the committed web bundle is not checked against its sources (.ci/run installs Node.js)"

run: build
	./$(BIN) $(ARGS)

# test checks formatting, then vets, then runs every test with the race
# detector (when there is a C compiler), in that order, stopping at the
# first failure. A missing tmux or ssh is named: their end-to-end tests skip;
# so is a missing ../shared/agones (the tests against the real Agones SDK
# server skip), and a missing chromium or playwright-core (the browser's
# end-to-end test skips). The committed web bundle is checked against its
# sources first (web-check, with npm).
test: $(WEB_CHECK)
	@unformatted="$$($(GOFMT) -l .)" || exit 1; \
	if [ -n "$$unformatted" ]; then \
		echo "gofmt: these files are not formatted (run gofmt -w on them):"; \
		echo "$$unformatted"; \
		exit 1; \
	fi
	$(GO) vet ./...
	$(GO) vet -tags soak ./cmd/gridlag
	@for tool in tmux ssh; do \
		command -v $$tool >/dev/null 2>&1 || \
			echo "note: $$tool is not installed: the end-to-end tests that need it will SKIP (.ci/run installs it)"; \
	done
	@command -v rsvg-convert >/dev/null 2>&1 || \
		echo "note: rsvg-convert is not installed: the sequence diagram's test checks the SVG without rendering it (.ci/run installs librsvg2-bin)"
	@if [ ! -x /usr/bin/chromium ]; then \
		echo "note: /usr/bin/chromium is not installed: the browser's end-to-end test will SKIP (.ci/run installs Debian's chromium)"; \
	elif [ ! -d front/web/e2e/node_modules/playwright-core ]; then \
		echo "note: playwright-core is not installed in front/web/e2e: the browser's end-to-end test will SKIP (.ci/run runs npm ci there)"; \
	fi
	@if [ ! -x ../shared/agones/run-sdk-server ]; then \
		echo "note: ../shared/agones/run-sdk-server is absent: the tests against the real Agones SDK server will SKIP"; \
	elif ! command -v xz >/dev/null 2>&1; then \
		echo "note: xz is not installed: the tests against the real Agones SDK server will FAIL (.ci/run installs xz-utils)"; \
	fi
	@[ -n "$(RACE)" ] || echo "note: no C compiler ($(CC_NAME)), which the race detector needs: testing without -race (install gcc for it)"
	$(GO) test $(RACE) -count=1 ./...
	@# The scale lab's 1,000 bots: with -race the test stops at 100; the
	@# huge terminals' heap, a minute's drawing with -race, is skipped there.
	@[ -z "$(RACE)" ] || { echo "$(GO) test -count=1 -run TestThousandBotsAndTheirFigures ./ops/scale"; \
		$(GO) test -count=1 -run TestThousandBotsAndTheirFigures ./ops/scale && \
		echo "$(GO) test -count=1 -run TestHugeTerminalsCostAsOverSSH ./front/web" && \
		$(GO) test -count=1 -run TestHugeTerminalsCostAsOverSSH ./front/web; }

# fuzz runs each fuzz target for $(FUZZTIME): the protocol's decoder, a
# recording's parser, a trace's parser, the filter of a remote terminal's input, and the
# SSH and web sessions of the real game fed any bytes on any terminal
# size (each must end when its client goes and leave no goroutine).
fuzz:
	$(GO) test -run='^$$' -fuzz='^FuzzDecode$$' -fuzztime=$(FUZZTIME) ./protocol
	$(GO) test -run='^$$' -fuzz='^FuzzParse$$' -fuzztime=$(FUZZTIME) ./lab/record
	$(GO) test -run='^$$' -fuzz='^FuzzParseTrace$$' -fuzztime=$(FUZZTIME) ./internal/link
	$(GO) test -run='^$$' -fuzz='^FuzzInputFilter$$' -fuzztime=$(FUZZTIME) ./front/remote
	$(GO) test -run='^$$' -fuzz='^FuzzSSHInput$$' -fuzztime=$(FUZZTIME) ./front/sshd
	$(GO) test -run='^$$' -fuzz='^FuzzWebInput$$' -fuzztime=$(FUZZTIME) ./front/web

bench:
	$(GO) test -run='^$$' -bench=. -benchmem ./...

# soak is not part of test: it runs for $(SOAK), the server in process
# with its SSH and web front ends, under churn, garbage, slow readers and
# floods, room churn, room holders, lobby floods, name impersonation and
# resumes from another address, SSH sockets that never send a banner from
# 16 addresses and SSH sessions on 10000x10000 terminals flooding window
# changes, SSH and web sessions typing bytes that are not UTF-8 and broken
# escape sequences (issue 30), web sessions on 10000x10000 terminals,
# pages that stop reading, upgrades with a foreign Host, message floods
# and garbage, from loopback addresses (127.0.0.2 and up) while an honest
# player plays from 127.0.0.9 and an honest SSH player and an honest web
# player connect and play every 2 s from 127.0.0.10 and 127.0.0.11, then
# prints goroutines, file descriptors, heap and RSS against the baseline,
# the log's growth, the honest players' round trips, acknowledgements and
# handshakes, the front ends' refusals, the sessions still running and
# the CPU once the attacks stopped, and what the close left behind.
# SOAK_ONLY="room churn" runs the attacks named alone (e.g. "ssh bad
# bytes,web bad bytes"), SOAK_MAP=1024x1024 on a big map.
soak:
	SOAK=$(SOAK) SOAK_ONLY="$(SOAK_ONLY)" SOAK_MAP="$(SOAK_MAP)" $(GO) test -tags soak -run '^TestSoak$$' -count=1 -timeout 0 -v ./cmd/gridlag

# class is not part of test either: a class of 40 behind one address in
# real browsers at the server's defaults (front/web/e2e/class.js): with
# the teacher's code all 40 play, without it 16 do and 24 are told why.
# A few minutes of 80 browser pages on a small machine; make test runs the
# same with a class of 5.
class: $(WEB_CHECK)
	GRIDLAG_CLASS=full $(GO) test -run '^(TestBrowserClassCode|TestClassCodeSessions)$$' -count=1 -timeout 20m -v ./front/web

# load is not part of test either: one scale run on this machine. A server
# on the first core (-map-gen $(LOAD_MAP), its caps raised for $(LOAD_N)
# players, -metrics on the next port) and gridlag load on the second, the
# players spread over one loopback address per 30 (the per-address cap),
# walking for $(LOAD_TIME). It prints the load's summary, with the server's
# ticks, CPU and RSS during the walk from its metrics. Linux (127/8).
load: build
	@set -e; n=$(LOAD_N); k=$$((n / 30 + 2)); last=127.0.$$((1 + k / 250)).$$((1 + k % 250)); \
	metrics=127.0.0.1:$$(($(LOAD_PORT) + 1)); pin0=; pin1=; \
	if command -v taskset >/dev/null && [ "$$(nproc)" -ge 2 ]; then pin0="taskset -c 0"; pin1="taskset -c 1"; fi; \
	$$pin0 $(BIN) -server -addr 127.0.0.1:$(LOAD_PORT) -map-gen $(LOAD_MAP) -metrics $$metrics -drain 0s -bot-addrs 127.0.0.0/8 \
		-max-players $$((n + 10)) -max-conns $$((n + 100)) -log bin/load-server.log & srv=$$!; \
	trap 'kill $$srv 2>/dev/null' EXIT; sleep 1; \
	$$pin1 $(BIN) load -connect 127.0.0.1:$(LOAD_PORT) -n $$n -duration $(LOAD_TIME) -addrs 127.0.1.1-$$last \
		-server-metrics http://$$metrics/metrics $(LOAD_FLAGS)

# scale builds what ../shared/device/scale.sh runs on a machine with many
# cores into .scale/ (ignored): a static binary that needs no Go there, and
# the script itself when the checkout has it beside it.
scale:
	mkdir -p .scale
	CGO_ENABLED=0 $(GO) build -ldflags "-s -w -X main.stamp=$(STAMP)" -o .scale/gridlag ./cmd/gridlag
	@if [ -f ../shared/device/scale.sh ]; then install -m 0755 ../shared/device/scale.sh .scale/scale.sh; else echo "note: no ../shared/device/scale.sh to copy"; fi

clean:
	rm -rf bin .scale
