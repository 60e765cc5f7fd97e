#!/bin/sh
# Rebuilds third_party/openai-go from the openai-go module in Go's module cache (the version go.mod requires):
# the packages goose-ls-agent links, with the root package cut to chat completions, completions and the
# client plumbing. See third_party/README.md for why; run from the repository root, then `go build ./...`.
set -eu
version=$(go list -m -f '{{.Version}}' github.com/openai/openai-go/v3)
go mod download "github.com/openai/openai-go/v3@$version"
src=$(go env GOMODCACHE)/github.com/openai/openai-go/v3@$version
dst=third_party/openai-go
rm -rf "$dst"
mkdir -p "$dst"
cp -r "$src/." "$dst/"
chmod -R u+w "$dst"
cd "$dst"
find . -name '*_test.go' -delete
rm -rf .[!.]* # the upstream repository's own tooling (.github, .agents, …)
# docs, examples, scripts, cloud adapters and the services the root client no longer builds
rm -rf lib docs scripts tasks azure bedrock examples conversations live realtime webhooks internal/testutil \
	Brewfile release-please-config.json api.md AGENTS.md CHANGELOG.md CONTRIBUTING.md GO_CODE_QUALITY_POLICY.md \
	GO_VERSION_POLICY.md MIGRATION.md SECURITY.md
# the root package: chat completions, completions and what they need; every other service's file goes
for f in *.go; do
	case "$f" in
	aliases.go | chat.go | chatcompletion.go | chatcompletion_helpers.go | chatcompletionmessage.go | client.go | \
		completion.go | default_http_client.go | field.go | streamaccumulator*.go) ;;
	*) rm "$f" ;;
	esac
done
# the client: the three services left, without the imports of the removed packages
awk '
/^type Client struct \{/ { print; print "\tOptions     []option.RequestOption"; print "\tCompletions CompletionService"; print "\tChat        ChatService"; print "\tResponses   responses.ResponseService"; skip = 1; next }
skip && /^\}/ { skip = 0; print "}"; next }
skip { next }
/^\tr\.[A-Za-z]+ = / && !/^\tr\.(Completions|Chat|Responses) = / { next }
/"github.com\/openai\/openai-go\/v3\/(conversations|live|realtime|webhooks)"/ { next }
{ print }
' client.go > client.go.new
mv client.go.new client.go
sed -i '1i // goose-ls patch: the Client builds only Completions, Chat and Responses (third_party/trim-openai-go.sh).' client.go
gofmt -l . | xargs -r gofmt -w
