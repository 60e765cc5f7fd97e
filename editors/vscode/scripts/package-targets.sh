#!/usr/bin/env bash
# Packages one platform-specific vsix per VS Code target (vsce --target), each bundling only its own
# statically linked goose-ls: VS Code and the Marketplace then install the right one for the user's machine.
# Usage: package-targets.sh [TARGET ...]   (default: every target below); run from the repository root.
set -euo pipefail

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(linux-x64 linux-arm64 alpine-x64 alpine-arm64 darwin-x64 darwin-arm64 win32-x64 win32-arm64)

ext=editors/vscode
out="$ext/dist-vsix"
go=${GO:-go}

goos_goarch() { # VS Code target → Go's GOOS GOARCH
  case "$1" in
    linux-x64 | alpine-x64) echo "linux amd64" ;;
    linux-arm64 | alpine-arm64) echo "linux arm64" ;;
    linux-armhf) echo "linux arm" ;;
    darwin-x64) echo "darwin amd64" ;;
    darwin-arm64) echo "darwin arm64" ;;
    win32-x64) echo "windows amd64" ;;
    win32-arm64) echo "windows arm64" ;;
    *) echo "unknown VS Code target: $1" >&2; return 1 ;;
  esac
}

# the binary's folder name is what the extension looks up: process.platform-process.arch
bin_dir() { case "$1" in alpine-*) echo "linux-${1#alpine-}" ;; linux-armhf) echo "linux-arm" ;; *) echo "$1" ;; esac; }

mkdir -p "$out" "$ext/schema"
# the README's screenshots come from the last end-to-end run in code-server (e2e/vscode*_test.go)
if [ -n "${VSIX_SCREENSHOTS:-}" ]; then
  mkdir -p "$ext/media/screenshots"
  for shot in vscode/1-problems.png vscode/2-quickfix-menu.png vscode/4-run-transcript.png vscode-view/10-view-approval.png vscode-view/12-view-review-diff.png; do
    [ -s "$VSIX_SCREENSHOTS/$shot" ] || { echo "missing $VSIX_SCREENSHOTS/$shot: run the VS Code end-to-end tests first (.ci/run)" >&2; exit 1; }
    cp "$VSIX_SCREENSHOTS/$shot" "$ext/media/screenshots/$(basename "$shot")"
  done
fi
"$go" run ./cmd/goose-ls schema > "$ext/schema/recipe.schema.json"
(cd "$ext" && npm ci --no-audit --no-fund && npm run typecheck && npm run build)

# keep the host build of `make vsix` out of the way while packaging, and put it back afterwards
stash=""
if [ -d "$ext/bin" ]; then stash=$(mktemp -d); mv "$ext/bin" "$stash/bin"; fi
restore() { rm -rf "$ext/bin"; if [ -n "$stash" ]; then mv "$stash/bin" "$ext/bin"; rmdir "$stash"; fi; }
trap restore EXIT

for t in "${targets[@]}"; do
  read -r goos goarch < <(goos_goarch "$t")
  exe=goose-ls agent=goose-ls-agent; [ "$goos" = windows ] && exe=goose-ls.exe agent=goose-ls-agent.exe
  rm -rf "$ext/bin"
  mkdir -p "$ext/bin/$(bin_dir "$t")"
  CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch "$go" build -trimpath -ldflags "-s -w" -o "$ext/bin/$(bin_dir "$t")/$exe" ./cmd/goose-ls
  # the agent binary beside it: goose-ls runs it for the agent's commands and the editor's agent runs
  CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch "$go" build -trimpath -ldflags "-s -w" -o "$ext/bin/$(bin_dir "$t")/$agent" ./cmd/goose-ls-agent
  # VSIX_VERSION (make release): the release's version, without touching package.json
  (cd "$ext" && npx vsce package ${VSIX_VERSION:+"$VSIX_VERSION" --no-git-tag-version --no-update-package-json} \
    --no-dependencies --target "$t" -o "dist-vsix/goose-ls-$t.vsix")
  echo "packaged $out/goose-ls-$t.vsix"
done
