//go:build unix

// goose's recipe sessions over the SDK's client side: session/new by recipeId and by deeplink, the
// request-params round trip (submitted, cancelled, still missing), goose's answer to a client that did
// not opt in, the rendered recipe stored with the session and run by its prompts, goose's errors.

package acp

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
	"github.com/google/go-cmp/cmp"

	"github.com/goose-ls/goose-ls/agent/config"
	"github.com/goose-ls/goose-ls/agent/session"
	"github.com/goose-ls/goose-ls/recipe/library"
)

// paramsClient answers goose's request-params with a scripted answer and keeps every request; while a
// request waits for its answer, during (when set) sees it.
type paramsClient struct {
	*testClient
	answer string
	during func(req map[string]any)

	mu    sync.Mutex
	asked []map[string]any
}

func (c *paramsClient) HandleExtensionMethod(_ context.Context, method string, params json.RawMessage) (any, error) {
	if method != methodRecipeParams {
		return nil, sdk.NewMethodNotFound(method)
	}
	var req map[string]any
	if err := json.Unmarshal(params, &req); err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.asked = append(c.asked, req)
	c.mu.Unlock()
	if c.during != nil {
		c.during(req)
	}
	return json.RawMessage(c.answer), nil
}

// gooseStoredSessions reads the harness's sessions.db as goose reads it (goose's connection settings):
// each stored session's id with its message count, and the store's usage_ledger rows when it has one.
func gooseStoredSessions(t *testing.T, h *harness) (sessions map[string]int, ledgerRows int) {
	t.Helper()
	cfg, _ := config.Load(func(k string) (string, bool) { v, ok := h.env[k]; return v, ok })
	db, err := sql.Open("sqlite", "file:"+session.DefaultPath(cfg.DataDir)+"?_pragma=foreign_keys(1)&_pragma=busy_timeout(30000)&_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT s.id, COUNT(m.id) FROM sessions s LEFT JOIN messages m ON s.id = m.session_id GROUP BY s.id`)
	if err != nil {
		t.Fatalf("goose reads no sessions table: %v", err)
	}
	defer rows.Close()
	sessions = map[string]int{}
	for rows.Next() {
		var id string
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			t.Fatal(err)
		}
		sessions[id] = n
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	var hasLedger bool
	db.QueryRow(`SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'usage_ledger')`).Scan(&hasLedger)
	if hasLedger {
		if err := db.QueryRow(`SELECT COUNT(*) FROM usage_ledger`).Scan(&ledgerRows); err != nil {
			t.Fatal(err)
		}
	}
	return sessions, ledgerRows
}

// optIn is a client that takes goose's recipe parameter requests.
var optIn = sdk.ClientCapabilities{Meta: map[string]any{"goose": map[string]any{"recipeParameterRequests": true}}}

const greetRecipe = `version: 1.0.0
title: Greeter
description: Greets someone
instructions: You greet {{ name }} in a {{ tone }} tone.
prompt: Say hello to {{ name }}
parameters:
  - key: name
    input_type: string
    requirement: required
    description: who
  - key: tone
    input_type: select
    requirement: optional
    default: warm
    options: [warm, dry]
    description: how
`

// gooseHarness is a harness whose client answers request-params with answer, and the library folder
// (goose's config folder's recipes) holding greet.yaml and plain.yaml.
func gooseHarness(t *testing.T, m *model, caps sdk.ClientCapabilities, answer string, o harnessOptions) (*harness, *paramsClient, string) {
	t.Helper()
	h := newHarness(t, m, o)
	lib := filepath.Join(h.home, "config", "recipes")
	os.MkdirAll(lib, 0o755)
	os.WriteFile(filepath.Join(lib, "greet.yaml"), []byte(greetRecipe), 0o644)
	os.WriteFile(filepath.Join(lib, "plain.yaml"), []byte("title: Plain\ndescription: No parameters\ninstructions: Be plain.\n"), 0o644)
	pc := &paramsClient{testClient: h.client, answer: answer}
	h.conn = reconnect(t, h, pc, caps)
	return h, pc, lib
}

func (h *harness) newSessionMeta(meta map[string]any) (sdk.NewSessionResponse, error) {
	return h.conn.NewSession(context.Background(), sdk.NewSessionRequest{Cwd: h.root, McpServers: []sdk.McpServer{}, Meta: meta})
}

// requestError is the JSON-RPC error of err (code, message and data as the client decoded them).
func requestError(t *testing.T, err error) *sdk.RequestError {
	t.Helper()
	var re *sdk.RequestError
	if !errors.As(err, &re) {
		t.Fatalf("want a JSON-RPC error, got %v", err)
	}
	return re
}

func TestRecipeSessionByIDAsksForItsParameters(t *testing.T) {
	m := newModel(text("Hello, Ada!"))
	h, pc, lib := gooseHarness(t, m, optIn, `{"action":"submit","values":{"name":"Ada"}}`, harnessOptions{})
	var storedWhileAsked map[string]int
	pc.during = func(map[string]any) { storedWhileAsked, _ = gooseStoredSessions(t, h) }
	id := library.ManifestID(filepath.Join(lib, "greet.yaml"))
	resp, err := h.newSessionMeta(map[string]any{"recipeId": id, "recipeParameterScopeId": "scope-7"})
	if err != nil {
		t.Fatal(err)
	}
	// the request: goose's payload, naming the session session/new answers with (created first, as
	// goose creates it: stored while the client is asked), the parameters as RecipeParameterDto
	if _, ok := storedWhileAsked[string(resp.SessionId)]; !ok || strings.HasPrefix(string(resp.SessionId), "acp-") {
		t.Fatalf("session %s was not stored while its parameters were asked for: %v", resp.SessionId, storedWhileAsked)
	}
	want := []map[string]any{{"sessionId": string(resp.SessionId), "parameterScopeId": "scope-7", "parameters": []any{
		map[string]any{"key": "name", "input_type": "string", "requirement": "required", "description": "who"},
		map[string]any{"key": "tone", "input_type": "select", "requirement": "optional", "description": "how", "default": "warm", "options": []any{"warm", "dry"}},
	}}}
	if diff := cmp.Diff(want, pc.asked); diff != "" {
		t.Fatalf("request-params (-want +got):\n%s", diff)
	}
	// the response's _meta: the rendered recipe, the values given, the folder
	rendered, _ := resp.Meta["recipe"].(map[string]any)
	if rendered["instructions"] != "You greet Ada in a warm tone." || rendered["prompt"] != "Say hello to Ada" ||
		!cmp.Equal(resp.Meta["userRecipeValues"], map[string]any{"name": "Ada"}) || resp.Meta["workingDir"] != h.root {
		t.Fatalf("_meta %+v", resp.Meta)
	}
	// stored with its recipe, values and title
	cfg, _ := config.Load(func(k string) (string, bool) { v, ok := h.env[k]; return v, ok })
	store, err := session.Open(session.DefaultPath(cfg.DataDir), nil)
	if err != nil {
		t.Fatal(err)
	}
	stored, _, err := store.Get(context.Background(), string(resp.SessionId))
	store.Close()
	if err != nil || stored.Name != "Greeter" || !strings.Contains(string(stored.Recipe), "You greet Ada in a warm tone.") ||
		!cmp.Equal(stored.RecipeValues, map[string]string{"name": "Ada"}) {
		t.Fatalf("stored session %+v %s: %v", stored, stored.Recipe, err)
	}
	// its prompts run the rendered recipe
	h.prompt(resp.SessionId, sdk.TextBlock("Say hello to Ada"))
	if sys := m.reqs[len(m.reqs)-1].System; !strings.Contains(sys, "You greet Ada in a warm tone.") {
		t.Fatalf("the run's system prompt lacks the recipe's instructions:\n%s", sys)
	}
}

func TestRecipeParametersCancelledOrStillMissing(t *testing.T) {
	for answer, want := range map[string]any{
		`{"action":"cancel"}`:               map[string]any{"reason": "recipe_params_cancelled"},
		`{"action":"submit","values":{}}`:   "recipe still missing required parameters",
		`{"values":{"tone":"dry"}}`:         "recipe still missing required parameters", // submit is the default action
		`{"action":"submit","values":null}`: "recipe still missing required parameters",
	} {
		h, pc, lib := gooseHarness(t, newModel(text("x")), optIn, answer, harnessOptions{})
		kept := h.newSession() // a session of the same store, which must stay
		var storedWhileAsked map[string]int
		pc.during = func(map[string]any) { storedWhileAsked, _ = gooseStoredSessions(t, h) }
		_, err := h.newSessionMeta(map[string]any{"recipeId": library.ManifestID(filepath.Join(lib, "greet.yaml"))})
		re := requestError(t, err)
		if re.Code != -32602 || !cmp.Equal(re.Data, want) {
			t.Errorf("%s: %+v, want invalid params with %v", answer, re, want)
		}
		// the session the request named was stored, and the failed set-up deleted it (goose's
		// cleanup): goose reads only the other one, and no message or usage row of it
		asked, _ := pc.asked[0]["sessionId"].(string)
		if _, ok := storedWhileAsked[asked]; !ok || asked == string(kept.SessionId) {
			t.Errorf("%s: the request named %q, stored then: %v", answer, asked, storedWhileAsked)
		}
		stored, ledger := gooseStoredSessions(t, h)
		if !cmp.Equal(stored, map[string]int{string(kept.SessionId): 0}) || ledger != 0 {
			t.Errorf("%s: goose reads sessions %v and %d usage rows after the failed set-up", answer, stored, ledger)
		}
		if _, err := h.conn.Prompt(context.Background(), sdk.PromptRequest{SessionId: sdk.SessionId(asked), Prompt: []sdk.ContentBlock{sdk.TextBlock("hi")}}); err == nil {
			t.Errorf("%s: the deleted session %s still takes prompts", answer, asked)
		}
	}
}

func TestRecipeSessionForAClientThatDidNotOptIn(t *testing.T) {
	h, pc, lib := gooseHarness(t, newModel(text("x")), sdk.ClientCapabilities{}, `{"action":"submit","values":{"name":"Ada"}}`, harnessOptions{})
	_, err := h.newSessionMeta(map[string]any{"recipeId": library.ManifestID(filepath.Join(lib, "greet.yaml"))})
	if re := requestError(t, err); re.Code != -32602 || re.Data != "recipe requires parameters but the client does not support recipeParameterRequests" {
		t.Fatalf("%+v", re)
	}
	resp, err := h.newSessionMeta(map[string]any{"recipeId": library.ManifestID(filepath.Join(lib, "plain.yaml"))})
	if err != nil {
		t.Fatal(err)
	}
	if _, has := resp.Meta["userRecipeValues"]; has || resp.Meta["recipe"].(map[string]any)["title"] != "Plain" {
		t.Fatalf("_meta %+v", resp.Meta)
	}
	if len(pc.asked) != 0 {
		t.Fatalf("a client that did not opt in was asked: %+v", pc.asked)
	}
}

func TestRecipeSessionErrorsAreGooses(t *testing.T) {
	h, _, lib := gooseHarness(t, newModel(text("x")), optIn, `{"action":"submit","values":{"name":"Ada"}}`, harnessOptions{})
	link := func(text string) string {
		r, err := library.Parse([]byte(text))
		if err != nil {
			t.Fatal(err)
		}
		return library.EncodeConfig(r)
	}
	for _, c := range []struct {
		meta map[string]any
		want string
	}{
		{map[string]any{"recipeId": 5}, "recipeId must be a string"},
		{map[string]any{"recipeId": "0123456789abcdef"}, "recipe not found: 0123456789abcdef"},
		{map[string]any{"recipeDeeplink": "not base64!"}, "recipeDeeplink: Failed to decode recipe deeplink"},
		{map[string]any{"recipeDeeplink": library.DeeplinkPrefix + link("title: T\ndescription: D\nprompt: p\n")}, "recipeDeeplink: Failed to decode recipe deeplink"},
		{map[string]any{"recipeDeeplink": []string{"x"}}, "recipeDeeplink must be a string"},
		{map[string]any{"recipeId": library.ManifestID(filepath.Join(lib, "plain.yaml")), "recipeParameterScopeId": 1}, "recipeParameterScopeId must be a string"},
	} {
		_, err := h.newSessionMeta(c.meta)
		if re := requestError(t, err); re.Code != -32602 || re.Data != c.want {
			t.Errorf("%v: %+v, want %q", c.meta, re, c.want)
		}
	}
	// a recipe goose would not validate: "recipe: " and goose's message
	_, err := h.newSessionMeta(map[string]any{"recipeDeeplink": link("title: T\ndescription: D\nprompt: Hi {{ who }}\n")})
	if re := requestError(t, err); re.Code != -32602 || !strings.HasPrefix(re.Data.(string), "recipe: ") || !strings.Contains(re.Data.(string), "who") {
		t.Fatalf("%+v", re)
	}
	// the deeplink wins over the id
	resp, err := h.newSessionMeta(map[string]any{"recipeDeeplink": link("title: From a link\ndescription: D\nprompt: p\n"),
		"recipeId": library.ManifestID(filepath.Join(lib, "greet.yaml"))})
	if err != nil || resp.Meta["recipe"].(map[string]any)["title"] != "From a link" {
		t.Fatalf("%+v %v", resp.Meta, err)
	}
}

func TestInMemoryRecipeSessionRunsItsRecipe(t *testing.T) {
	m := newModel(text("ok"))
	h, pc, lib := gooseHarness(t, m, optIn, `{"action":"submit","values":{"name":"Bo","tone":"dry"}}`, harnessOptions{noSessions: true})
	resp, err := h.newSessionMeta(map[string]any{"recipeId": library.ManifestID(filepath.Join(lib, "greet.yaml"))})
	if err != nil {
		t.Fatal(err)
	}
	if len(pc.asked) != 1 || pc.asked[0]["sessionId"] != string(resp.SessionId) {
		t.Fatalf("asked %+v for session %s", pc.asked, resp.SessionId)
	}
	h.prompt(resp.SessionId, sdk.TextBlock("go"))
	if len(m.reqs) == 0 {
		t.Fatalf("the model was not called; the agent said %q", h.client.agentText(resp.SessionId))
	}
	if sys := m.reqs[len(m.reqs)-1].System; !strings.Contains(sys, "You greet Bo in a dry tone.") {
		t.Fatalf("system prompt:\n%s", sys)
	}
}

func TestASessionWithoutGooseMetaIsUnchanged(t *testing.T) {
	h, pc, _ := gooseHarness(t, newModel(text("x")), optIn, `{"action":"cancel"}`, harnessOptions{})
	resp, err := h.newSessionMeta(nil)
	if err != nil || resp.Meta != nil || len(pc.asked) != 0 {
		t.Fatalf("%+v %v, asked %v", resp, err, pc.asked)
	}
}
