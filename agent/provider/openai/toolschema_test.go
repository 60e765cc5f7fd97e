// Tool input schemas reach both APIs' requests as the tool gave them (decoded at the top level only).
package openai

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/goose-ls/goose-ls/agent/provider"
)

func TestToolSchemaSentAsGiven(t *testing.T) {
	schema := `{"type":"object","properties":{"path":{"type":"string","description":"a <file> & more","enum":["a","b"]},` +
		`"n":{"type":["integer","null"],"minimum":1.5,"default":null},"opts":{"type":"array","items":{"type":"object",` +
		`"properties":{"k":{"type":"boolean"}}}}},"required":["path"],"additionalProperties":false}`
	var want any
	if err := json.Unmarshal([]byte(schema), &want); err != nil {
		t.Fatal(err)
	}
	req := provider.Request{Model: "m", Messages: []provider.Message{{Role: provider.User, Text: "hi"}},
		Tools: []provider.Tool{{Name: "t", Description: "d", InputSchema: json.RawMessage(schema)}, {Name: "none", Description: "no schema"}}}
	chat, err := New(Config{BaseURL: "http://127.0.0.1/v1/"}).params(req)
	if err != nil {
		t.Fatal(err)
	}
	body, err := chat.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	var sent struct {
		Tools []struct {
			Function struct{ Parameters any } `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &sent); err != nil || len(sent.Tools) != 2 {
		t.Fatalf("chat completions body %s: %v", body, err)
	}
	if got := sent.Tools[0].Function.Parameters; !reflect.DeepEqual(got, want) {
		t.Errorf("chat completions parameters %v, want %v", got, want)
	}
	empty := map[string]any{"type": "object", "properties": map[string]any{}}
	if got := sent.Tools[1].Function.Parameters; !reflect.DeepEqual(got, empty) {
		t.Errorf("a tool without a schema: parameters %v", got)
	}

	resp, err := responsesParams(req)
	if err != nil {
		t.Fatal(err)
	}
	if body, err = resp.MarshalJSON(); err != nil {
		t.Fatal(err)
	}
	var sentResp struct{ Tools []struct{ Parameters any } }
	if err := json.Unmarshal(body, &sentResp); err != nil || len(sentResp.Tools) != 2 {
		t.Fatalf("responses body %s: %v", body, err)
	}
	if got := sentResp.Tools[0].Parameters; !reflect.DeepEqual(got, want) {
		t.Errorf("responses parameters %v, want %v", got, want)
	}

	req.Tools = []provider.Tool{{Name: "bad", InputSchema: json.RawMessage(`[1]`)}}
	if _, err := New(Config{BaseURL: "http://127.0.0.1/v1/"}).params(req); err == nil {
		t.Error("a schema that is not an object was accepted")
	}
}
