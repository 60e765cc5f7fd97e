// Redaction at the loop's source: streamed text split across deltas, tool arguments and results, the
// shell's output, approval requests, a provider's 401 body quoting the key and the Outcome, for both
// vendors' wire formats.
package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
	"github.com/goose-ls/goose-ls/agent/tools"
)

// echoTool returns its "value" argument: a tool result that quotes what the model sent.
type echoTool struct{}

func (echoTool) Name() string         { return "echo" }
func (echoTool) Unprefixed() bool     { return false }
func (echoTool) Instructions() string { return "" }
func (echoTool) Close() error         { return nil }
func (echoTool) Tools() []tools.Spec {
	return []tools.Spec{{Name: "say", InputSchema: json.RawMessage(`{"type":"object"}`)}}
}
func (echoTool) Call(_ context.Context, _ string, args json.RawMessage) tools.Result {
	var a struct{ Value string }
	_ = json.Unmarshal(args, &a)
	return tools.Result{Text: "you said " + a.Value}
}

// authErrorBody is each vendor's 401 body quoting the key it was given.
func authErrorBody(vendor, key string) string {
	msg := "Incorrect API key provided: " + key + ". You can find your API key at https://platform.openai.com/account/api-keys."
	var body any = map[string]any{"error": map[string]any{"message": msg, "type": "invalid_request_error", "code": "invalid_api_key", "param": nil}}
	if vendor == "anthropic" {
		body = map[string]any{"type": "error", "error": map[string]any{"type": "authentication_error", "message": "invalid x-api-key " + key}}
	}
	b, _ := json.Marshal(body)
	return string(b)
}

func TestEverythingTheLoopReportsIsRedacted(t *testing.T) {
	for _, v := range wiretest.Vendors {
		for _, secret := range testSecrets {
			t.Run(v.Name, func(t *testing.T) {
				echoArgs, _ := json.Marshal(map[string]string{"value": secret})
				srv := v.Serve(wiretest.Replies(
					wiretest.Reply{Text: "The key is " + secret + " and again " + secret + ".", Calls: []wiretest.Call{
						call("shell", `{"command":"printf '%s' \"$GOOSE_LS_TEST_SECRET\""}`),
						call("echo__say", string(echoArgs)),
					}},
					wiretest.Reply{Status: 401, Body: authErrorBody(v.Name, secret)},
				))
				defer srv.Close()
				root := t.TempDir()
				dev := &tools.Developer{WS: tools.Disk{Dir: root}, Env: append(os.Environ(), "GOOSE_LS_TEST_SECRET="+secret)}
				rec := &recorder{}
				var mu sync.Mutex
				var approvals []string
				red := &Redactor{}
				red.Add(secret)
				cfg := Config{Provider: v.Provider(srv.URL), Model: "m", System: "sys", Tools: NewToolbox(Mount{Ext: dev}, Mount{Ext: echoTool{}}),
					WorkDir: root, Events: rec.add, Redactor: red, Mode: ModeApprove,
					Approver: ApproverFunc(func(_ context.Context, req ApprovalRequest) (Decision, error) {
						mu.Lock()
						approvals = append(approvals, string(req.Arguments))
						mu.Unlock()
						return Allow, nil
					})}
				out := Run(context.Background(), cfg, nil, "show me")
				if out.Status != StatusProviderError || provider.KindOf(out.Err) != provider.ErrAuth {
					t.Fatalf("status %s, err %v", out.Status, out.Err)
				}
				// the secret really flowed: the model got the tool results with it
				reqs := srv.Requests()
				if sent, _ := json.Marshal(reqs[len(reqs)-1]); strings.Count(string(sent), jsonEscape(secret, true)) < 2 {
					t.Fatalf("the tools' results did not carry the secret to the model: %s", sent)
				}

				var all strings.Builder
				var text strings.Builder
				for _, e := range rec.events {
					fmt.Fprintf(&all, "%d %q %q", e.Kind, e.Text, e.Path)
					if e.Call != nil {
						fmt.Fprintf(&all, " %s", e.Call.Arguments)
						if !json.Valid(e.Call.Arguments) {
							t.Errorf("arguments are not JSON: %s", e.Call.Arguments)
						}
					}
					if e.Result != nil {
						fmt.Fprintf(&all, " %q", e.Result.Text)
					}
					if e.Err != nil {
						fmt.Fprintf(&all, " %q", e.Err.Error())
					}
					all.WriteString("\n")
					if e.Kind == EventText {
						text.WriteString(e.Text)
					}
				}
				assertNoSecret(t, "events", all.String())
				assertNoSecret(t, "approval requests", strings.Join(approvals, "\n"))
				if len(approvals) != 2 {
					t.Errorf("approvals: %v", approvals)
				}
				if want := "The key is [REDACTED] and again [REDACTED]."; text.String() != want {
					t.Errorf("streamed text %q, want %q", text.String(), want)
				}
				msgs, _ := json.Marshal(out.Messages)
				assertNoSecret(t, "outcome", fmt.Sprintf("%s %q %q %q", msgs, out.Err.Error(), out.LastText, out.FinalOutput))
				if !strings.Contains(out.LastText, "Ran into this error") || !strings.Contains(out.Err.Error(), RedactedMarker) {
					t.Errorf("last text %q, err %v", out.LastText, out.Err)
				}
			})
		}
	}
}
