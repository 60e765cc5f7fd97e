# goose-ls build, test, lint, bench and fuzz targets.
GO ?= go
BIN := bin/goose-ls
FUZZTIME ?= 30s
STATICCHECK := $(shell $(GO) env GOPATH)/bin/staticcheck

.PHONY: all build check-examples test test-short lint bench fuzz clean

all: build

build:
	$(GO) build -o $(BIN) ./cmd/goose-ls

# The main job: build and check the bundled example recipes.
check-examples: build
	./$(BIN) check examples

# Every test, with the race detector.
test:
	$(GO) vet ./...
	$(GO) test -race -count=1 ./...

test-short:
	$(GO) test -count=1 ./...

$(STATICCHECK):
	$(GO) install honnef.co/go/tools/cmd/staticcheck@v0.8.2

lint: $(STATICCHECK)
	$(GO) vet ./...
	$(STATICCHECK) ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./recipe/... ./cmd/...

# Each fuzz target for FUZZTIME (set FUZZTIME=10m for a release run).
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzCheck$$' -fuzztime $(FUZZTIME) ./recipe
	$(GO) test -run '^$$' -fuzz '^FuzzTemplate$$' -fuzztime $(FUZZTIME) ./recipe/template
	$(GO) test -run '^$$' -fuzz '^FuzzYAMLTree$$' -fuzztime $(FUZZTIME) ./recipe/yamltree

clean:
	rm -rf bin
