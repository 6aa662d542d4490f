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

.PHONY: all help build run test fuzz bench soak clean

all: build

help:
	@echo 'make build                 build $(BIN)'
	@echo 'make run ARGS="..."        build, then start a local server and the terminal client'
	@echo '                           e.g. make run ARGS="-latency 250ms"'
	@echo 'make test                  gofmt check, go vet, go test -race'
	@echo 'make fuzz FUZZTIME=60s     fuzz the protocol decoder'
	@echo 'make bench                 run the benchmarks'
	@echo 'make soak SOAK=10m         run the server under abuse with an honest player, then print what it holds'
	@echo 'make clean                 remove build output'

build:
	$(GO) build -o $(BIN) ./cmd/gridlag

run: build
	./$(BIN) $(ARGS)

# test checks formatting, then vets, then runs every test with the race
# detector (when there is a C compiler), in that order, stopping at the
# first failure. A missing tmux or ssh is named: their end-to-end tests skip;
# so is a missing ../shared/agones (the tests against the real Agones SDK
# server skip).
test:
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
	@if [ ! -x ../shared/agones/run-sdk-server ]; then \
		echo "note: ../shared/agones/run-sdk-server is absent: the tests against the real Agones SDK server will SKIP"; \
	elif ! command -v xz >/dev/null 2>&1; then \
		echo "note: xz is not installed: the tests against the real Agones SDK server will FAIL (.ci/run installs xz-utils)"; \
	fi
	@[ -n "$(RACE)" ] || echo "note: no C compiler ($(CC_NAME)), which the race detector needs: testing without -race (install gcc for it)"
	$(GO) test $(RACE) -count=1 ./...

fuzz:
	$(GO) test -run='^$$' -fuzz='^FuzzDecode$$' -fuzztime=$(FUZZTIME) ./protocol

bench:
	$(GO) test -run='^$$' -bench=. -benchmem ./...

# soak is not part of test: it runs for $(SOAK), the server in process
# with its SSH front end, under churn, garbage, slow readers and floods
# from loopback addresses (127.0.0.2 and up) while an honest player plays
# from 127.0.0.9, then prints goroutines, file descriptors, heap and RSS
# against the baseline and the honest player's round trips.
soak:
	SOAK=$(SOAK) $(GO) test -tags soak -run '^TestSoak$$' -count=1 -timeout 0 -v ./cmd/gridlag

clean:
	rm -rf bin
