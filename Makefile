# goose-ls build, test, lint, bench and fuzz targets.
GO ?= go
BIN := bin/goose-ls
FUZZTIME ?= 30s
STATICCHECK := $(shell $(GO) env GOPATH)/bin/staticcheck

.PHONY: release all build check-examples test test-short lint bench bench-lsp bench-startup bench-agent bench-typing bench-edits fuzz clean vsix \
	vsix-targets vscode-test differential \
	e2e-rootfs e2e-rootfs-trixie e2e-rootfs-forky

all: build

# Static, as the release packages are built (editors/vscode/scripts/package-targets.sh): with cgo available, `net` made both
# binaries dynamically linked, and the dynamic loader cost every process ~1 ms and ~70 page faults at start.
GOBUILD := CGO_ENABLED=0 $(GO) build

# goose-ls (checker, language server) and goose-ls-agent beside it (run, acp, sessions, the server's agent runs)
build:
	$(GOBUILD) -o $(BIN) ./cmd/goose-ls
	$(GOBUILD) -o bin/goose-ls-agent ./cmd/goose-ls-agent

# The main job: build and check the bundled example recipes.
check-examples: build
	./$(BIN) check examples

# Every test, with the race detector.
test:
	$(GO) vet ./...
	$(GO) test -race -count=1 -timeout 30m ./...

test-short:
	$(GO) test -count=1 ./...

$(STATICCHECK):
	$(GO) install honnef.co/go/tools/cmd/staticcheck@v0.8.2

lint: $(STATICCHECK)
	@test -z "$$(gofmt -l .)" || { echo "gofmt would change:"; gofmt -l .; exit 1; }
	$(GO) vet ./...
	# goose-ls ships for Windows and macOS too (make vsix-targets): both must keep compiling
	GOOS=windows GOARCH=amd64 CGO_ENABLED=0 $(GO) vet ./...
	GOOS=darwin GOARCH=arm64 CGO_ENABLED=0 $(GO) vet ./...
	$(STATICCHECK) ./...
	$(GO) run github.com/rhysd/actionlint/cmd/actionlint@v1.7.12 .github/workflows/*.yml

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./recipe/... ./cmd/... ./agent/... ./lsp/...

# Start-up, reported (docs/performance.md): `goose-ls check` of a 42-line recipe against a hello-world Go
# program reading the same file, alternating run by run (internal/agentbench/alternate), then the corpus.
STARTUP_DIR := bin/startup
bench-startup: build
	mkdir -p $(STARTUP_DIR)
	$(GO) build -o $(STARTUP_DIR)/readfile ./internal/agentbench/readfile
	$(GO) build -o $(STARTUP_DIR)/alternate ./internal/agentbench/alternate
	$(GO) run ./internal/agentbench/smallrecipe > $(STARTUP_DIR)/small.yaml
	$(STARTUP_DIR)/alternate -n 100 '$(STARTUP_DIR)/readfile $(STARTUP_DIR)/small.yaml' './$(BIN) check $(STARTUP_DIR)/small.yaml'
	$(STARTUP_DIR)/alternate -n 30 '$(STARTUP_DIR)/readfile $(STARTUP_DIR)/small.yaml' './$(BIN) check ../shared/corpus'

# Agent start-up: process start → first request at a scripted provider, goose-ls run vs minagent
# (OLD=DIR: an earlier build's goose-ls and goose-ls-agent in the same rotation).
bench-agent: build
	$(GOBUILD) -o bin/minagent ./internal/agentbench/minagent
	$(GO) run ./internal/agentbench -goose $(BIN) -agent bin/goose-ls-agent -min bin/minagent -n 30 $(if $(OLD),-old $(OLD))

# Memory over time: type into the heavy recipe for TYPING (issue 17 asks for 10m) and sample RSS.
TYPING ?= 60s
bench-typing: build
	$(GO) build -o bin/lspbench ./internal/lspbench
	./bin/lspbench -server bin/goose-ls -type $(TYPING)

# Keystroke latency per kind of edit: typing mixed with edits that change the heavy recipe's structure
# (a key renamed, a line dedented, an enum typo, a flow sequence left unclosed) and their undos, EDITS
# rounds, didChange → publishDiagnostics p50/p95 per kind and peak RSS (docs/performance.md). BEFORE=CMD
# edits an earlier build in the same rounds (alternating), for a before/after table from one run.
EDITS ?= 50
bench-edits: build
	$(GO) build -o bin/lspbench ./internal/lspbench
	./bin/lspbench -server bin/goose-ls -edits $(EDITS) $(if $(BEFORE),-before "$(BEFORE)")

# Each fuzz target for FUZZTIME (set FUZZTIME=10m for a release run).
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzCheck$$' -fuzztime $(FUZZTIME) ./recipe
	$(GO) test -run '^$$' -fuzz '^FuzzTemplate$$' -fuzztime $(FUZZTIME) ./recipe/template
	$(GO) test -run '^$$' -fuzz '^FuzzYAMLTree$$' -fuzztime $(FUZZTIME) ./recipe/yamltree
	$(GO) test -run '^$$' -fuzz '^FuzzCachedTree$$' -fuzztime $(FUZZTIME) ./recipe/yamltree
	$(GO) test -run '^$$' -fuzz '^FuzzApplyChange$$' -fuzztime $(FUZZTIME) ./lsp
	$(GO) test -run '^$$' -fuzz '^FuzzServerFrames$$' -fuzztime $(FUZZTIME) ./lsp
	$(GO) test -run '^$$' -fuzz '^FuzzLineIndex$$' -fuzztime $(FUZZTIME) ./recipe/source
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeRow$$' -fuzztime $(FUZZTIME) ./agent/session
	$(GO) test -run '^$$' -fuzz '^FuzzSkillText$$' -fuzztime $(FUZZTIME) ./agent/platform

clean:
	rm -rf bin

# The differential harness on SEEDS fresh random seeds (printed; rerun them with
# `go test ./internal/differential -run '^TestDifferential$' -v -args -seeds=a,b`), against issue 12's targets.
# The references: ../shared/tools/minijinja-oracle-2.24/mj-oracle (minijinja 2.24.0, what goose resolves
# today) and libyaml (python3-yaml).
SEEDS ?= 5
differential:
	$(GO) test -run '^TestDifferential$$' -count=1 -v -timeout 60m ./internal/differential -args -fresh=$(SEEDS)

# LSP latency benchmark over stdio: goose-ls and yaml-language-server (npm) with goose-ls's own schema.
YAMLLS_DIR ?= .bench/yamlls
bench-lsp: build
	$(GO) build -o bin/lspbench ./internal/lspbench
	@test -x $(YAMLLS_DIR)/node_modules/.bin/yaml-language-server || npm install --prefix $(YAMLLS_DIR) --no-audit --no-fund yaml-language-server@1 >/dev/null
	./bin/lspbench -server bin/goose-ls -yamlls "node $(YAMLLS_DIR)/node_modules/yaml-language-server/bin/yaml-language-server --stdio" -n 200

# Soak: 1,000 open recipes with 100 edits per second for 30 s.
soak-lsp: build
	$(GO) build -o bin/lspbench ./internal/lspbench
	./bin/lspbench -server bin/goose-ls -soak 30s

# The VS Code extension: the goose-ls binary for this platform and the recipe schema bundled, the
# extension bundled with esbuild, packaged with vsce into editors/vscode/goose-ls.vsix.
VSCODE := editors/vscode
VSCODE_PLATFORM := $(shell node -p 'process.platform + "-" + process.arch' 2>/dev/null)
vsix:
	mkdir -p $(VSCODE)/bin/$(VSCODE_PLATFORM) $(VSCODE)/schema
	$(GOBUILD) -trimpath -ldflags "-s -w" -o $(VSCODE)/bin/$(VSCODE_PLATFORM)/goose-ls ./cmd/goose-ls
	$(GOBUILD) -trimpath -ldflags "-s -w" -o $(VSCODE)/bin/$(VSCODE_PLATFORM)/goose-ls-agent ./cmd/goose-ls-agent
	$(VSCODE)/bin/$(VSCODE_PLATFORM)/goose-ls schema > $(VSCODE)/schema/recipe.schema.json
	cd $(VSCODE) && npm ci --no-audit --no-fund && npm run typecheck && npm run build && npm run package

# One platform-specific vsix per VS Code target (vsce --target) in editors/vscode/dist-vsix/, each with
# only its own statically linked goose-ls; VSIX_TARGETS="linux-x64 darwin-arm64" packages a subset.
vsix-targets:
	GO=$(GO) $(VSCODE)/scripts/package-targets.sh $(VSIX_TARGETS)

# The extension's unit tests (node --test; no VS Code needed).
vscode-test:
	cd $(VSCODE) && { test -d node_modules || npm ci --no-audit --no-fund; } && npm test

# Debian root filesystems with the editors people run today, for e2e/: trixie (Neovim 0.10, Emacs 30) and
# forky (Neovim 0.12; bookworm's debootstrap bootstraps it with sid's script). Each is built once outside
# the checkout (about 4 minutes each, needs root and debootstrap) and gets a statically linked goose-ls;
# the tests run the editors inside with unshare --mount --pid --fork chroot.
E2E_ROOTFS ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/goose-ls-e2e
e2e-rootfs: e2e-rootfs-trixie e2e-rootfs-forky
	CGO_ENABLED=0 $(GO) build -o bin/goose-ls-static ./cmd/goose-ls
	CGO_ENABLED=0 $(GO) build -o bin/goose-ls-agent-static ./cmd/goose-ls-agent
	for suite in trixie forky; do install -m 0755 bin/goose-ls-static $(E2E_ROOTFS)/$$suite/usr/local/bin/goose-ls; \
		install -m 0755 bin/goose-ls-agent-static $(E2E_ROOTFS)/$$suite/usr/local/bin/goose-ls-agent; done

e2e-rootfs-trixie:
	e2e/rootfs/build.sh $(E2E_ROOTFS)/trixie trixie neovim,emacs-nox

e2e-rootfs-forky:
	e2e/rootfs/build.sh $(E2E_ROOTFS)/forky forky neovim /usr/share/debootstrap/scripts/sid

# A release (VERSION=vX.Y.Z): reproducible archives for every platform with SHA256SUMS in dist/ and the
# ACP registry entry (internal/release), then the platform VS Code packages with the README's screenshots
# from the last end-to-end run (e2e/artifacts: run .ci/run first).
release:
	@test -n "$(VERSION)" || { echo "usage: make release VERSION=vX.Y.Z" >&2; exit 2; }
	$(GO) run ./internal/release -version $(VERSION) -out dist
	VSIX_VERSION=$(VERSION:v%=%) VSIX_SCREENSHOTS=$(or $(GOOSE_E2E_ARTIFACTS),e2e/artifacts) GO=$(GO) $(VSCODE)/scripts/package-targets.sh
	cp $(VSCODE)/dist-vsix/*.vsix dist/
