// What a set-up needs to know of the providers goose-ls implements natively: goose's display name, the
// secret the provider authenticates with, the settings it cannot run without, its default model.

package configure

// NativeInfo describes one of the Providers.
type NativeInfo struct {
	DisplayName string
	Key         string // the secret (goose's config key) holding the API key; "" for none
	KeyRequired bool   // false: the provider runs without it (a local server, Entra ID)
	Settings    []string
	// DefaultModel is what a run uses when GOOSE_MODEL is not set ("" for azure_openai: the deployment)
	DefaultModel string
}

// natives are goose's metadata for the native providers (display names as its ProviderMetadata gives
// them, keys as Resolve reads them).
var natives = map[string]NativeInfo{
	"openai":       {DisplayName: "OpenAI", Key: "OPENAI_API_KEY", KeyRequired: true},
	"anthropic":    {DisplayName: "Anthropic", Key: "ANTHROPIC_API_KEY", KeyRequired: true},
	"ollama":       {DisplayName: "Ollama"},
	"openrouter":   {DisplayName: "OpenRouter", Key: "OPENROUTER_API_KEY", KeyRequired: true},
	"litellm":      {DisplayName: "LiteLLM", Key: "LITELLM_API_KEY"},
	"azure_openai": {DisplayName: "Azure OpenAI", Key: "AZURE_OPENAI_API_KEY", Settings: []string{"AZURE_OPENAI_ENDPOINT", "AZURE_OPENAI_DEPLOYMENT_NAME"}},
	"xai":          {DisplayName: "xAI", Key: "XAI_API_KEY", KeyRequired: true},
	"avian":        {DisplayName: "Avian", Key: "AVIAN_API_KEY", KeyRequired: true},
}

// Native returns what goose-ls knows of the native provider name.
func Native(name string) (NativeInfo, bool) {
	n, ok := natives[name]
	if ok {
		n.DefaultModel = defaultModels[name]
	}
	return n, ok
}
