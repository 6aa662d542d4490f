# gridlag build, test and fuzz targets. Run `make help` for the list.

GO       ?= go
GOFMT    ?= gofmt
BIN      := bin/gridlag
ARGS     ?=
FUZZTIME ?= 60s

.PHONY: all help build run test fuzz bench clean

all: build

help:
	@echo 'make build                 build $(BIN)'
	@echo 'make run ARGS="..."        build, then start a local server and the terminal client'
	@echo '                           e.g. make run ARGS="-latency 250ms"'
	@echo 'make test                  gofmt check, go vet, go test -race'
	@echo 'make fuzz FUZZTIME=60s     fuzz the protocol decoder'
	@echo 'make bench                 run the benchmarks'
	@echo 'make clean                 remove build output'

build:
	$(GO) build -o $(BIN) ./cmd/gridlag

run: build
	./$(BIN) $(ARGS)

# test checks formatting, then vets, then runs every test with the race
# detector, in that order, stopping at the first failure.
test:
	@unformatted="$$($(GOFMT) -l .)" || exit 1; \
	if [ -n "$$unformatted" ]; then \
		echo "gofmt: these files are not formatted (run gofmt -w on them):"; \
		echo "$$unformatted"; \
		exit 1; \
	fi
	$(GO) vet ./...
	$(GO) test -race -count=1 ./...

fuzz:
	$(GO) test -run='^$$' -fuzz='^FuzzDecode$$' -fuzztime=$(FUZZTIME) ./protocol

bench:
	$(GO) test -run='^$$' -bench=. -benchmem ./...

clean:
	rm -rf bin
