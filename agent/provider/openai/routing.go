// Which of OpenAI's two APIs goose 1.38 uses for a model and a base path (should_use_responses_api), and
// the base paths it derives (derive_base_path, map_base_path).

package openai

import "strings"

// DefaultChatPath is OpenAI's chat completions path; only this path leaves the choice to the model.
const DefaultChatPath = "v1/chat/completions"

// IsResponsesModel reports whether goose sends model to the Responses API on the default path: goose's
// is_openai_responses_model, the regular expression (?i)(?:^|[-/])(?:o\d+(?:$|-)|gpt-5(?:$|[-.])) — every
// o-series and gpt-5 name, anywhere in the identifier (goose-o3-mini, openai/gpt-5.1-codex), but not gpt-4o
// or gpt-oss. Matched by hand: compiling the expression cost ~0.4 ms of every run's start-up, on the path
// the first request waits for (routing_test.go checks it against the expression).
func IsResponsesModel(model string) bool {
	for i := 0; i < len(model); i++ {
		if (i == 0 || model[i-1] == '-' || model[i-1] == '/') && responsesModelAt(model[i:]) {
			return true
		}
	}
	return false
}

// responsesModelAt reports whether s starts with o<digits> followed by its end or '-', or with gpt-5
// followed by its end, '-' or '.' (letters in either case).
func responsesModelAt(s string) bool {
	lower := func(c byte) byte { return c | 0x20 } // ASCII letters only: callers compare with letters
	if len(s) >= 2 && lower(s[0]) == 'o' && isDigit(s[1]) {
		j := 1
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		return j == len(s) || s[j] == '-'
	}
	if len(s) >= 5 && lower(s[0]) == 'g' && lower(s[1]) == 'p' && lower(s[2]) == 't' && s[3] == '-' && s[4] == '5' {
		return len(s) == 5 || s[5] == '-' || s[5] == '.'
	}
	return false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

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
func ResponsesPath(basePath string) string {
	n := normalizePath(basePath)
	switch {
	case strings.HasSuffix(n, "responses") || strings.Contains(n, "/responses"):
		return n
	case isChatPath(n):
		return strings.Replace(n, "chat/completions", "responses", 1)
	case strings.HasPrefix(n, "/"):
		return "/v1/responses"
	}
	return "v1/responses"
}

// DeriveBasePath is goose's derive_base_path for a declarative provider's base_url path: empty →
// v1/chat/completions; ending in chat/completions → kept; ending in a v<digits> segment → +
// /chat/completions; anything else → + /v1/chat/completions.
func DeriveBasePath(urlPath string) string {
	stripped := strings.TrimLeft(urlPath, "/")
	n := strings.TrimRight(stripped, "/")
	last := n[strings.LastIndex(n, "/")+1:]
	switch {
	case n == "":
		return DefaultChatPath
	case strings.HasSuffix(n, "chat/completions"):
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
