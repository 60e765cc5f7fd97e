// Parsing a provider file as goose's serde derive does: exact (case-sensitive) keys, required fields,
// non-optional fields refuse null, unknown keys ignored, the engine's three names and their
// *_compatible aliases, wire_api (provider and model) only on the openai engine.

package registry

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

type object map[string]json.RawMessage

func isNull(raw json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("null")) }

// field decodes key into dst. A missing required key is serde's "missing field"; null is accepted only
// when the field is optional (Option<T> in goose), as serde does.
func field[T any](o object, key string, required, optional bool, dst *T) error {
	raw, ok := o[key]
	if !ok {
		if required {
			return fmt.Errorf("missing field `%s`", key)
		}
		return nil
	}
	if isNull(raw) {
		if optional {
			return nil
		}
		return fmt.Errorf("invalid type: null for `%s`", key)
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		return fmt.Errorf("invalid value for `%s`: %w", key, err)
	}
	return nil
}

func decodeObject(data []byte, what string) (object, error) {
	var o object
	if err := json.Unmarshal(data, &o); err != nil {
		return nil, err
	}
	if o == nil {
		return nil, fmt.Errorf("invalid type: null, expected %s", what)
	}
	return o, nil
}

// Parse reads one provider file.
func Parse(data []byte) (*Provider, error) {
	o, err := decodeObject(data, "a provider object")
	if err != nil {
		return nil, err
	}
	p := &Provider{RequiresAuth: true}
	var engine, fastModel, wireAPI string
	var modelsRaw, envRaw []json.RawMessage
	var authRaw json.RawMessage
	var ignoredString string
	var ignoredBool bool
	var preserves *bool
	var ignoredList []string
	for _, err := range []error{
		field(o, "name", true, false, &p.Name),
		field(o, "engine", true, false, &engine),
		field(o, "display_name", true, false, &p.DisplayName),
		field(o, "description", false, true, &ignoredString),
		field(o, "api_key_env", false, false, &p.APIKeyEnv),
		field(o, "base_url", true, false, &p.BaseURL),
		field(o, "models", true, false, &modelsRaw),
		field(o, "headers", false, true, &p.Headers),
		field(o, "session_id_header_override", false, true, &p.SessionIDHeader),
		field(o, "timeout_seconds", false, true, &p.TimeoutSeconds),
		field(o, "supports_streaming", false, true, &p.SupportsStreaming),
		field(o, "wire_api", false, true, &wireAPI),
		field(o, "requires_auth", false, false, &p.RequiresAuth),
		field(o, "catalog_provider_id", false, true, &ignoredString),
		field(o, "base_path", false, true, &p.BasePath),
		field(o, "env_vars", false, true, &envRaw),
		field(o, "auth", false, true, &authRaw),
		field(o, "dynamic_models", false, true, &p.DynamicModels),
		field(o, "skip_canonical_filtering", false, false, &ignoredBool),
		field(o, "model_doc_link", false, true, &ignoredString),
		field(o, "setup_steps", false, false, &ignoredList),
		field(o, "fast_model", false, true, &fastModel),
		field(o, "toolshim", false, false, &ignoredBool),
		field(o, "preserves_thinking", false, false, &preserves),
		field(o, "emit_clear_thinking", false, false, &ignoredBool),
	} {
		if err != nil {
			return nil, err
		}
	}
	if p.Engine, err = parseEngine(engine); err != nil {
		return nil, err
	}
	if p.WireAPI, err = parseWireAPI(wireAPI); err != nil {
		return nil, err
	}
	p.FastModel = strings.TrimSpace(fastModel)
	p.PreservesThinking = preserves
	for i, raw := range modelsRaw {
		m, err := parseModel(raw)
		if err != nil {
			return nil, fmt.Errorf("models[%d]: %w", i, err)
		}
		p.Models = append(p.Models, m)
	}
	for i, raw := range envRaw {
		v, err := parseEnvVar(raw)
		if err != nil {
			return nil, fmt.Errorf("env_vars[%d]: %w", i, err)
		}
		p.EnvVars = append(p.EnvVars, v)
	}
	if authRaw != nil && !isNull(authRaw) {
		a, err := parseAuth(authRaw)
		if err != nil {
			return nil, fmt.Errorf("auth: %w", err)
		}
		p.Auth = &a
	}
	if err := p.validateWireAPI(); err != nil {
		return nil, err
	}
	return p, nil
}

// engineAliases are the spellings goose's JSON accepts for each engine (serde lowercase names plus
// their *_compatible aliases, case-sensitive).
var engineAliases = map[string]Engine{
	"openai": EngineOpenAI, "openai_compatible": EngineOpenAI,
	"anthropic": EngineAnthropic, "anthropic_compatible": EngineAnthropic,
	"ollama": EngineOllama, "ollama_compatible": EngineOllama,
}

func parseEngine(s string) (Engine, error) {
	if e, ok := engineAliases[s]; ok {
		return e, nil
	}
	return "", fmt.Errorf("unknown variant `%s`, expected one of `openai`, `ollama`, `anthropic`", s)
}

// parseWireAPI reads a wire_api value ("" when absent or null).
func parseWireAPI(s string) (WireAPI, error) {
	switch w := WireAPI(s); w {
	case "", WireChatCompletions, WireResponses:
		return w, nil
	}
	return "", fmt.Errorf("unknown variant `%s`, expected `chat_completions` or `responses`", s)
}

// validateWireAPI is goose's validate_wire_api: only the openai engine takes wire_api, on the provider
// or on any model.
func (p *Provider) validateWireAPI() error {
	if p.Engine == EngineOpenAI {
		return nil
	}
	set := p.WireAPI != ""
	for _, m := range p.Models {
		set = set || m.WireAPI != ""
	}
	if set {
		return fmt.Errorf("Provider '%s': wire_api is only supported by the openai engine", p.Name)
	}
	return nil
}

// parseAuth reads an `auth` block: a command (required), its arguments, the refresh interval (default
// 3600 s; 0: only after an authentication failure), a timeout and a working folder.
func parseAuth(raw json.RawMessage) (AuthConfig, error) {
	o, err := decodeObject(raw, "an auth object")
	if err != nil {
		return AuthConfig{}, err
	}
	a := AuthConfig{RefreshInterval: DefaultAuthRefreshInterval}
	for _, err := range []error{
		field(o, "command", true, false, &a.Command),
		field(o, "args", false, false, &a.Args),
		field(o, "refresh_interval", false, false, &a.RefreshInterval),
		field(o, "timeout_seconds", false, true, &a.TimeoutSeconds),
		field(o, "cwd", false, true, &a.Cwd),
	} {
		if err != nil {
			return a, err
		}
	}
	return a, nil
}

func parseModel(raw json.RawMessage) (Model, error) {
	o, err := decodeObject(raw, "a model object")
	if err != nil {
		return Model{}, err
	}
	var m Model
	var limit uint64
	var wireAPI string
	for _, err := range []error{
		field(o, "name", true, false, &m.Name),
		field(o, "context_limit", false, true, &limit),
		field(o, "wire_api", false, true, &wireAPI),
	} {
		if err != nil {
			return m, err
		}
	}
	m.ContextLimit = int(min(limit, 1<<40))
	m.WireAPI, err = parseWireAPI(wireAPI)
	return m, err
}

func parseEnvVar(raw json.RawMessage) (EnvVar, error) {
	o, err := decodeObject(raw, "an env var object")
	if err != nil {
		return EnvVar{}, err
	}
	var v EnvVar
	var primary bool
	var description string
	for _, err := range []error{
		field(o, "name", true, false, &v.Name),
		field(o, "required", false, false, &v.Required),
		field(o, "secret", false, false, &v.Secret),
		field(o, "primary", false, true, &primary),
		field(o, "description", false, true, &description),
		field(o, "default", false, true, &v.Default),
	} {
		if err != nil {
			return v, err
		}
	}
	return v, nil
}
