// Which of OpenAI's two APIs goose uses for a model and a base path (a declarative provider's wire_api,
// else should_use_responses_api), and the base paths it derives (derive_base_path, map_base_path).

package openai

import (
	"regexp"
	"strings"
)

// DefaultChatPath is OpenAI's chat completions path; only this path leaves the choice to the model.
const DefaultChatPath = "v1/chat/completions"

// responsesModel is goose's is_openai_responses_model expression: every o-series and gpt-5 name,
// anywhere in the identifier (goose-o3-mini, openai/gpt-5.1-codex), but not gpt-4o or gpt-oss.
var responsesModel = regexp.MustCompile(`(?i)(?:^|[-/])(?:o\d+(?:$|-)|gpt-5(?:$|[-.]))`)

// IsResponsesModel reports whether goose sends model to the Responses API on the default path.
func IsResponsesModel(model string) bool { return responsesModel.MatchString(model) }

// normalizePath strips trailing slashes, keeping one leading slash if there was one.
func normalizePath(p string) string {
	if rest, ok := strings.CutPrefix(p, "/"); ok {
		return "/" + strings.TrimRight(rest, "/")
	}
	return strings.TrimRight(p, "/")
}

func isChatPath(p string) bool {
	return strings.Contains(strings.ToLower(normalizePath(p)), "chat/completions")
}

func isResponsesPath(p string) bool {
	n := strings.ToLower(normalizePath(p))
	return strings.HasSuffix(n, "responses") || strings.Contains(n, "/responses")
}

// UseResponses is goose's routing for an OpenAI-engine provider: nearai never; a base path other than
// exactly v1/chat/completions decides by itself when it names responses or chat/completions; otherwise
// the model decides.
func UseResponses(providerName, model, basePath string) bool {
	if providerName == "nearai" {
		return false
	}
	n := normalizePath(basePath)
	if n != DefaultChatPath {
		if isResponsesPath(n) {
			return true
		}
		if isChatPath(n) {
			return false
		}
	}
	return IsResponsesModel(model)
}

// ResponsesPath is where a Responses request goes for basePath (goose's map_base_path(…, "responses",
// "v1/responses")): chat/completions replaced by responses, a responses path kept, else v1/responses.
func ResponsesPath(basePath string) string { return mapBasePath(basePath, "responses", "v1/responses") }

// ChatPath is where a chat completions request goes for basePath: the base path itself, except that a
// responses path (a base_url ending in /responses with wire_api chat_completions) has its "responses"
// replaced by chat/completions, as map_base_path does.
func ChatPath(basePath string) string {
	if isResponsesPath(basePath) && !isChatPath(basePath) {
		return mapBasePath(basePath, "chat/completions", DefaultChatPath)
	}
	return basePath
}

// mapBasePath is goose's map_base_path: a path already naming target is kept; otherwise its
// chat/completions, else its responses, becomes target; otherwise fallback (absolute when the path is).
func mapBasePath(basePath, target, fallback string) string {
	n := normalizePath(basePath)
	lower := strings.ToLower(n)
	switch {
	case strings.HasSuffix(n, target) || strings.Contains(n, "/"+target):
		return n
	case strings.Contains(lower, "chat/completions"):
		return strings.Replace(n, "chat/completions", target, 1)
	case strings.HasSuffix(lower, "responses") || strings.Contains(lower, "/responses"):
		return strings.Replace(n, "responses", target, 1)
	case strings.HasPrefix(n, "/"):
		return "/" + strings.TrimLeft(fallback, "/")
	}
	return fallback
}

// Route is where an openai-engine declarative provider sends model: wire is the provider's choice for
// it (registry.Provider.ModelWireAPI: "chat_completions", "responses", or "" for goose's routing by
// model and path); path is the request path on the host.
func Route(providerName, model, basePath, wire string) (responses bool, path string) {
	switch wire {
	case "responses":
		responses = true
	case "chat_completions":
	default:
		responses = UseResponses(providerName, model, basePath)
	}
	if responses {
		return true, ResponsesPath(basePath)
	}
	return false, ChatPath(basePath)
}

// DeriveBasePath is goose's derive_base_path for a declarative provider's base_url path: empty →
// v1/chat/completions; ending in chat/completions or responses → kept (goose sends a wire_api's other
// API next to it); ending in a v<digits> segment → + /chat/completions; anything else → +
// /v1/chat/completions.
func DeriveBasePath(urlPath string) string {
	stripped := strings.TrimLeft(urlPath, "/")
	n := strings.TrimRight(stripped, "/")
	last := n[strings.LastIndex(n, "/")+1:]
	switch {
	case n == "":
		return DefaultChatPath
	case strings.HasSuffix(n, "chat/completions") || strings.HasSuffix(n, "responses"):
		return stripped
	case isVersionSegment(last):
		return n + "/chat/completions"
	}
	return n + "/v1/chat/completions"
}

func isVersionSegment(s string) bool {
	rest, ok := strings.CutPrefix(s, "v")
	if !ok || rest == "" {
		return false
	}
	for _, c := range rest {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
