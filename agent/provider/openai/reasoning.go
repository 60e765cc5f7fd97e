// An OpenAI-compatible server's reasoning as goose handles it: read from reasoning_content (DeepSeek,
// OpenRouter) or reasoning (vLLM), kept as the message's thinking, and sent back as reasoning_content.

package openai

import (
	"encoding/json"
	"strings"

	"github.com/openai/openai-go/v3/packages/respjson"
)

// reasoningText is a delta's or message's reasoning: reasoning_content when it is a non-empty string,
// else reasoning (some servers send both).
func reasoningText(extra map[string]respjson.Field) string {
	for _, key := range []string{"reasoning_content", "reasoning"} {
		f, ok := extra[key]
		if !ok {
			continue
		}
		var s string
		if json.Unmarshal([]byte(f.Raw()), &s) == nil && s != "" {
			return s
		}
	}
	return ""
}

// mergeReasoning joins the reasoning of an assistant message that carried nothing else (prefix) with
// the next one's, as goose's merge_reasoning_text: a side that already holds the other is kept alone.
func mergeReasoning(prefix, suffix string) string {
	switch {
	case prefix == "":
		return suffix
	case suffix == "":
		return prefix
	case strings.HasPrefix(suffix, prefix):
		return suffix
	case strings.HasSuffix(prefix, suffix):
		return prefix
	}
	return prefix + suffix
}
