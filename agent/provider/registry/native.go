// The providers goose 1.38 implements in Rust (crates/goose/src/providers/init.rs), by registry name.

package registry

// GooseNative lists goose 1.38's non-declarative provider names (aws_bedrock and sagemaker_tgi need
// goose's aws-providers feature, local its local-inference feature). goose-ls implements some of them
// itself (agent/provider/configure); for the others it says so instead of "unknown provider".
var GooseNative = []string{
	"amp-acp", "anthropic", "avian", "aws_bedrock", "azure_openai", "chatgpt_codex", "claude-acp",
	"claude-code", "codex", "codex-acp", "copilot-acp", "cursor-agent", "databricks", "databricks_v2",
	"gcp_vertex_ai", "gemini-cli", "gemini_oauth", "github_copilot", "google", "huggingface", "kimi_code",
	"litellm", "local", "nano-gpt", "ollama", "openai", "openrouter", "pi-acp", "sagemaker_tgi", "snowflake",
	"tetrate", "xai", "xai_oauth",
}
