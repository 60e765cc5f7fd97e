// The JSON fields goose's definitions gained since 1.38 (wire_api, auth, session_id_header_override, the
// *_compatible engine names, models without a context limit), in built-ins and custom_providers files.
package registry

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestEngineAliases(t *testing.T) {
	for spelling, want := range map[string]Engine{
		"openai": EngineOpenAI, "openai_compatible": EngineOpenAI, "anthropic": EngineAnthropic,
		"anthropic_compatible": EngineAnthropic, "ollama": EngineOllama, "ollama_compatible": EngineOllama,
	} {
		p, err := Parse([]byte(`{"name":"x","engine":"` + spelling + `","display_name":"X","base_url":"http://h","models":[]}`))
		if err != nil || p.Engine != want {
			t.Errorf("engine %q: %v %v", spelling, p, err)
		}
	}
	for _, bad := range []string{"OpenAI", "openai-compatible", "compatible", ""} {
		_, err := Parse([]byte(`{"name":"x","engine":"` + bad + `","display_name":"X","base_url":"http://h","models":[]}`))
		if err == nil || err.Error() != "unknown variant `"+bad+"`, expected one of `openai`, `ollama`, `anthropic`" {
			t.Errorf("engine %q: %v", bad, err)
		}
	}
}

func TestWireAPI(t *testing.T) {
	p, err := Parse([]byte(`{"name":"custom_w","engine":"openai_compatible","display_name":"W","base_url":"http://h/proxy/v2/responses",
	  "wire_api":"chat_completions","models":[{"name":"Llama","wire_api":"responses"},{"name":"plain","context_limit":8000},{"name":"c","wire_api":null}]}`))
	if err != nil {
		t.Fatal(err)
	}
	for model, want := range map[string]WireAPI{"Llama": WireResponses, "llama": WireChatCompletions, "plain": WireChatCompletions, "c": WireChatCompletions, "gpt-5": WireChatCompletions} {
		if got := p.ModelWireAPI(model); got != want {
			t.Errorf("ModelWireAPI(%s) = %q, want %q", model, got, want)
		}
	}
	if p.ContextLimit("Llama") != 0 || p.ContextLimit("plain") != 8000 {
		t.Errorf("context limits %+v", p.Models)
	}
	p, _ = Parse([]byte(`{"name":"x","engine":"openai","display_name":"X","base_url":"http://h","models":[{"name":"m","context_limit":1}]}`))
	if p.ModelWireAPI("m") != "" {
		t.Errorf("no wire_api: %q", p.ModelWireAPI("m"))
	}
	for _, engine := range []string{"anthropic", "anthropic_compatible", "ollama", "ollama_compatible"} {
		for _, doc := range []string{
			`{"name":"mine","engine":"` + engine + `","display_name":"X","base_url":"http://h","models":[],"wire_api":"responses"}`,
			`{"name":"mine","engine":"` + engine + `","display_name":"X","base_url":"http://h","models":[{"name":"m","wire_api":"chat_completions"}]}`,
		} {
			if _, err := Parse([]byte(doc)); err == nil || err.Error() != "Provider 'mine': wire_api is only supported by the openai engine" {
				t.Errorf("%s: %v", doc, err)
			}
		}
	}
	if _, err := Parse([]byte(`{"name":"x","engine":"openai","display_name":"X","base_url":"http://h","models":[{"name":"m","wire_api":"invalid"}]}`)); err == nil ||
		!strings.Contains(err.Error(), "unknown variant `invalid`, expected `chat_completions` or `responses`") {
		t.Errorf("invalid model wire_api: %v", err)
	}
}

func TestAuthBlock(t *testing.T) {
	p, err := Parse([]byte(`{"name":"custom_corp","engine":"openai","display_name":"Corp","base_url":"http://h/v1","models":[],
	  "auth":{"command":"/opt/get-token.sh"},"session_id_header_override":"x-corp-session"}`))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(&AuthConfig{Command: "/opt/get-token.sh", RefreshInterval: 3600}, p.Auth); diff != "" {
		t.Errorf("defaults (-want +got):\n%s", diff)
	}
	if p.SessionIDHeader == nil || *p.SessionIDHeader != "x-corp-session" || p.ValidateAuth() != nil || !p.RequiresAuth {
		t.Errorf("provider %+v: %v", p, p.ValidateAuth())
	}
	p, err = Parse([]byte(`{"name":"custom_corp","engine":"anthropic","display_name":"Corp","base_url":"http://h","models":[],"api_key_env":"CORP_KEY",
	  "auth":{"command":"tok","args":["--raw"],"refresh_interval":0,"timeout_seconds":3,"cwd":"scripts"}}`))
	if err != nil {
		t.Fatal(err)
	}
	three, dir := uint64(3), "scripts"
	if diff := cmp.Diff(&AuthConfig{Command: "tok", Args: []string{"--raw"}, RefreshInterval: 0, TimeoutSeconds: &three, Cwd: &dir}, p.Auth); diff != "" {
		t.Errorf("all fields (-want +got):\n%s", diff)
	}
	if err := p.ValidateAuth(); err == nil || err.Error() != "Provider 'custom_corp' sets both `api_key_env` and `auth.command`; these are mutually exclusive." {
		t.Errorf("both: %v", err)
	}
	if p, err := Parse([]byte(`{"name":"x","engine":"openai","display_name":"X","base_url":"http://h","models":[],"auth":null}`)); err != nil || p.Auth != nil {
		t.Errorf("auth null: %+v %v", p, err)
	}
}

// A custom_providers file takes the same fields as a built-in.
func TestCustomFileWithTheNewFields(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "corp.json", `{"name":"custom_corp","engine":"openai_compatible","display_name":"Corp","base_url":"http://127.0.0.1:1/v1",
	  "wire_api":"responses","models":[{"name":"m1","wire_api":"chat_completions"}],"auth":{"command":"printf","args":["tok"],"refresh_interval":60},
	  "session_id_header_override":"x-corp","toolshim":false,"emit_clear_thinking":true,"setup":{"category":"model"}}`)
	r := Load(dir)
	if r.CustomErr != nil {
		t.Fatal(r.CustomErr)
	}
	p, ok := r.Lookup("custom_corp")
	if !ok || p.Engine != EngineOpenAI || p.WireAPI != WireResponses || p.ModelWireAPI("m1") != WireChatCompletions ||
		p.Auth == nil || p.Auth.RefreshInterval != 60 || *p.SessionIDHeader != "x-corp" {
		t.Fatalf("custom_corp = %+v", p)
	}
	writeFile(t, dir, "wire.json", `{"name":"custom_w","engine":"ollama","display_name":"W","base_url":"h","models":[],"wire_api":"responses"}`)
	if r := Load(dir); r.CustomErr == nil || !strings.Contains(r.CustomErr.Error(), "wire.json: Provider 'custom_w': wire_api is only supported by the openai engine") ||
		len(r.Names()) != 0 {
		t.Errorf("wire_api on ollama: %v, %d names", r.CustomErr, len(r.Names()))
	}
}
