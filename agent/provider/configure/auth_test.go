//go:build unix

// A custom provider's `auth` command against local servers that check the credential header: a real
// script prints the credential; it is reused for refresh_interval, fetched again after an
// authentication failure (also with refresh_interval 0), bounded by timeout_seconds, and a failing command
// is goose's error. Also wire_api's routing over HTTP and goose's error for api_key_env with auth.
package configure

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
)

// tokenScript writes an executable script into dir that counts its runs in dir/runs and prints
// tok-<run> (body, when given, replaces the printing).
func tokenScript(t *testing.T, dir, body string) string {
	t.Helper()
	if body == "" {
		body = `echo "tok-$n"`
	}
	script := filepath.Join(dir, "get-token.sh")
	text := "#!/bin/sh\nn=$(( $(cat runs 2>/dev/null || echo 0) + 1 ))\necho $n > runs\n" + body + "\n"
	if err := os.WriteFile(script, []byte(text), 0o700); err != nil {
		t.Fatal(err)
	}
	return script
}

func runs(t *testing.T, dir string) int {
	t.Helper()
	data, _ := os.ReadFile(filepath.Join(dir, "runs"))
	n, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	return n
}

// authProvider resolves a custom provider of engine at url whose auth block is auth (JSON).
func authProvider(t *testing.T, engine, url, auth string) provider.Setup {
	t.Helper()
	root := goosePathRoot(t, map[string]string{"corp.json": `{"name":"custom_corp","engine":"` + engine + `","display_name":"Corp",
	  "base_url":"` + url + `","models":[{"name":"corp-model","context_limit":64000}],"auth":` + auth + `}`})
	r, err := Resolve(lookup(map[string]string{"GOOSE_PATH_ROOT": root, "GOOSE_PROVIDER": "custom_corp"}), provider.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func ask(r provider.Setup) error {
	_, err := r.Provider.Stream(context.Background(), provider.Request{Model: r.Model,
		Messages: []provider.Message{{Role: provider.User, Text: "hi"}}}, func(provider.Delta) {})
	return err
}

func headerValues(srv *wiretest.Server, name string) []string {
	var out []string
	for _, h := range srv.Headers() {
		out = append(out, h.Get(name))
	}
	return out
}

func TestAuthCommandCredentialIsCachedForTheRefreshInterval(t *testing.T) {
	dir := t.TempDir()
	script := tokenScript(t, dir, "")
	srv := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Text: "ok"}))
	defer srv.Close()
	r := authProvider(t, "openai", srv.URL+"/v1", `{"command":"`+script+`","cwd":"`+dir+`"}`)
	for range 3 {
		if err := ask(r); err != nil {
			t.Fatal(err)
		}
	}
	if got := strings.Join(headerValues(srv, "Authorization"), ","); got != "Bearer tok-1,Bearer tok-1,Bearer tok-1" || runs(t, dir) != 1 {
		t.Errorf("headers %s after %d runs of the command", got, runs(t, dir))
	}
}

func TestAuthCommandRunsAgainAfterTheRefreshInterval(t *testing.T) {
	dir := t.TempDir()
	script := tokenScript(t, dir, "")
	srv := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Text: "ok"}))
	defer srv.Close()
	r := authProvider(t, "openai", srv.URL+"/v1", `{"command":"`+script+`","cwd":"`+dir+`","refresh_interval":1}`)
	if err := ask(r); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1100 * time.Millisecond)
	if err := ask(r); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(headerValues(srv, "Authorization"), ","); got != "Bearer tok-1,Bearer tok-2" {
		t.Errorf("headers %s", got)
	}
}

// A 401 (or 403) drops the credential and the request goes once more with a fresh one; with
// refresh_interval 0 that is the only time the command runs again.
func TestAuthFailureFetchesTheCredentialAgain(t *testing.T) {
	for _, status := range []int{http.StatusUnauthorized, http.StatusForbidden} {
		t.Run(strconv.Itoa(status), func(t *testing.T) {
			dir := t.TempDir()
			script := tokenScript(t, dir, "")
			srv := wiretest.OpenAI(func(n int, _ map[string]any) wiretest.Reply {
				if n == 0 {
					return wiretest.Reply{Status: status}
				}
				return wiretest.Reply{Text: "ok"}
			})
			defer srv.Close()
			r := authProvider(t, "openai", srv.URL+"/v1", `{"command":"`+script+`","cwd":"`+dir+`","refresh_interval":0}`)
			if err := ask(r); err != nil {
				t.Fatal(err)
			}
			time.Sleep(50 * time.Millisecond)
			if err := ask(r); err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(headerValues(srv, "Authorization"), ","); got != "Bearer tok-1,Bearer tok-2,Bearer tok-2" || runs(t, dir) != 2 {
				t.Errorf("headers %s after %d runs", got, runs(t, dir))
			}
		})
	}
	// a credential that keeps failing: one retry, then goose's authentication error
	dir := t.TempDir()
	srv := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Status: http.StatusUnauthorized}))
	defer srv.Close()
	r := authProvider(t, "openai", srv.URL+"/v1", `{"command":"`+tokenScript(t, dir, "")+`","cwd":"`+dir+`"}`)
	if err := ask(r); provider.KindOf(err) != provider.ErrAuth || len(srv.Requests()) != 2 || runs(t, dir) != 2 {
		t.Errorf("%v after %d requests, %d runs", err, len(srv.Requests()), runs(t, dir))
	}
}

// Each credential the command prints reaches the run's watcher (its redactor) as it is fetched, the
// refreshed one too, for every engine; a watcher registered after a fetch gets the credential held.
func TestAuthCommandCredentialsAreReportedForRedaction(t *testing.T) {
	for _, engine := range []string{"openai", "anthropic", "ollama"} {
		t.Run(engine, func(t *testing.T) {
			dir := t.TempDir()
			script := tokenScript(t, dir, `echo "tok-`+engine+`-$n-secret"`)
			reply := func(n int, _ map[string]any) wiretest.Reply {
				if n == 0 {
					return wiretest.Reply{Status: http.StatusUnauthorized}
				}
				return wiretest.Reply{Text: "ok"}
			}
			var srv *wiretest.Server
			base := ""
			switch engine {
			case "anthropic":
				srv = wiretest.Anthropic(reply)
				base = srv.URL
			case "openai":
				srv = wiretest.OpenAI(reply)
				base = srv.URL + "/v1"
			default:
				srv = wiretest.OpenAI(reply)
				base = srv.URL
			}
			defer srv.Close()
			r := authProvider(t, engine, base, `{"command":"`+script+`","cwd":"`+dir+`"}`)
			if r.WatchSecrets == nil {
				t.Fatal("no WatchSecrets for a provider with an auth command")
			}
			var mu sync.Mutex
			var reported []string
			r.WatchSecrets(func(v ...string) { mu.Lock(); reported = append(reported, v...); mu.Unlock() })
			if err := ask(r); err != nil {
				t.Fatal(err)
			}
			want := []string{"tok-" + engine + "-1-secret", "tok-" + engine + "-2-secret"}
			mu.Lock()
			got := slices.Clone(reported)
			mu.Unlock()
			if !slices.Equal(got, want) || runs(t, dir) != 2 {
				t.Errorf("reported %q after %d runs, want %q", got, runs(t, dir), want)
			}
			var late []string
			r.WatchSecrets(func(v ...string) { late = append(late, v...) })
			if !slices.Equal(late, want[1:]) {
				t.Errorf("a late watcher got %q", late)
			}
		})
	}
	// no auth command: nothing to watch
	srv := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Text: "ok"}))
	defer srv.Close()
	root := goosePathRoot(t, map[string]string{"k.json": `{"name":"custom_k","engine":"openai","display_name":"K","api_key_env":"K_KEY",
	  "base_url":"` + srv.URL + `/v1","models":[{"name":"m","context_limit":1000}]}`})
	r, err := Resolve(lookup(map[string]string{"GOOSE_PATH_ROOT": root, "GOOSE_PROVIDER": "custom_k", "K_KEY": "key-k-1"}), provider.Settings{})
	if err != nil || r.WatchSecrets != nil {
		t.Errorf("without auth: WatchSecrets set %v (%v)", r.WatchSecrets != nil, err)
	}
}

func TestAuthCommandTimeoutKillsIt(t *testing.T) {
	dir := t.TempDir()
	script := tokenScript(t, dir, "sleep 30 & echo $! > child.pid\nwait")
	srv := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Text: "ok"}))
	defer srv.Close()
	r := authProvider(t, "openai", srv.URL+"/v1", `{"command":"`+script+`","cwd":"`+dir+`","timeout_seconds":1}`)
	start := time.Now()
	err := ask(r)
	if err == nil || !strings.Contains(err.Error(), "auth command '"+script+"' timed out after 1s") || time.Since(start) > 5*time.Second {
		t.Fatalf("%v after %s", err, time.Since(start))
	}
	if len(srv.Requests()) != 0 {
		t.Errorf("a request went without a credential")
	}
	data, _ := os.ReadFile(filepath.Join(dir, "child.pid"))
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	deadline := time.Now().Add(2 * time.Second)
	for pid > 0 && running(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("the command's child %d survived the timeout", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// running: the process exists and is not a zombie (a killed child waits there for whoever reaps orphans).
func running(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	_, rest, _ := strings.Cut(string(stat), ") ")
	return !strings.HasPrefix(rest, "Z")
}

func TestAuthCommandFailuresAreGoosesErrors(t *testing.T) {
	srv := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Text: "ok"}))
	defer srv.Close()
	for _, c := range []struct {
		name, body, want string
	}{
		{"exit", "echo sk-leaked-secret; echo 'vault is sealed' >&2; exit 3", "exited with exit status: 3: vault is sealed"},
		{"empty", "echo '   '", "produced an empty credential"},
		{"not utf-8", `printf '\377\376'`, "wrote non-UTF-8 data to stdout"},
		{"killed", "kill -9 $$", "exited with signal: 9 (SIGKILL): "},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			script := tokenScript(t, dir, c.body)
			r := authProvider(t, "openai", srv.URL+"/v1", `{"command":"`+script+`","cwd":"`+dir+`"}`)
			err := ask(r)
			if err == nil || !strings.Contains(err.Error(), "auth command '"+script+"' "+c.want) || strings.Contains(err.Error(), "sk-leaked") {
				t.Errorf("%v", err)
			}
		})
	}
	r := authProvider(t, "openai", srv.URL+"/v1", `{"command":"/nonexistent/get-token"}`)
	if err := ask(r); err == nil || !strings.Contains(err.Error(), "failed to run auth command '/nonexistent/get-token': ") {
		t.Errorf("missing command: %v", err)
	}
	if len(srv.Requests()) != 0 {
		t.Errorf("%d requests went without a credential", len(srv.Requests()))
	}
}

// The command runs directly (arguments are not a shell's), in cwd, a relative command path under it.
func TestAuthCommandArgumentsAndFolder(t *testing.T) {
	dir := t.TempDir()
	tokenScript(t, dir, `echo "tok-$1-$(basename "$PWD")"`)
	srv := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Text: "ok"}))
	defer srv.Close()
	r := authProvider(t, "openai", srv.URL+"/v1", `{"command":"./get-token.sh","args":["a b;$(id)"],"cwd":"`+dir+`"}`)
	if err := ask(r); err != nil {
		t.Fatal(err)
	}
	if got, want := srv.Headers()[0].Get("Authorization"), "Bearer tok-a b;$(id)-"+filepath.Base(dir); got != want {
		t.Errorf("Authorization %q, want %q", got, want)
	}
}

// The anthropic engine sends the credential as x-api-key (no Bearer); the ollama engine, which sends
// no key, sends an auth command's credential as a bearer token.
func TestAuthCommandOnEachEngine(t *testing.T) {
	dir := t.TempDir()
	script := tokenScript(t, dir, "")
	ant := wiretest.Anthropic(wiretest.Replies(wiretest.Reply{Text: "ok"}))
	defer ant.Close()
	if err := ask(authProvider(t, "anthropic_compatible", ant.URL, `{"command":"`+script+`","cwd":"`+dir+`"}`)); err != nil {
		t.Fatal(err)
	}
	if h := ant.Headers()[0]; h.Get("X-Api-Key") != "tok-1" || h.Get("Authorization") != "" {
		t.Errorf("anthropic headers %v", h)
	}
	oll := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Text: "ok"}))
	defer oll.Close()
	if err := ask(authProvider(t, "ollama", oll.URL, `{"command":"`+script+`","cwd":"`+dir+`"}`)); err != nil {
		t.Fatal(err)
	}
	if h := oll.Headers()[0].Get("Authorization"); h != "Bearer tok-2" {
		t.Errorf("ollama Authorization %q", h)
	}
}

func TestAPIKeyEnvWithAuthCommandIsGoosesError(t *testing.T) {
	for _, engine := range []string{"openai", "anthropic"} {
		root := goosePathRoot(t, map[string]string{"corp.json": `{"name":"custom_corp","engine":"` + engine + `","display_name":"Corp",
		  "api_key_env":"CORP_KEY","base_url":"http://127.0.0.1:9/v1","models":[{"name":"m","context_limit":1000}],"auth":{"command":"true"}}`})
		_, err := Resolve(lookup(map[string]string{"GOOSE_PATH_ROOT": root, "GOOSE_PROVIDER": "custom_corp", "CORP_KEY": "k"}), provider.Settings{})
		if err == nil || !strings.HasSuffix(err.Error(), "Provider 'custom_corp' sets both `api_key_env` and `auth.command`; these are mutually exclusive.") {
			t.Errorf("%s: %v", engine, err)
		}
	}
}

// wire_api over HTTP, as goose's own test has it: a model's exact entry first, then the provider's, then
// goose's routing by model and path; a responses base URL gives chat/completions beside it.
func TestWireAPIRouting(t *testing.T) {
	rec := useRecordingTransport(t)
	send := func(baseURL, wire, model string) string {
		t.Helper()
		doc := fmt.Sprintf(`{"name":"custom_wire_api","engine":"openai","display_name":"W","base_url":%q,"requires_auth":false,
		  "models":[{"name":"Llama","wire_api":"responses"}]%s}`, baseURL, wire)
		root := goosePathRoot(t, map[string]string{"w.json": doc})
		r, err := Resolve(lookup(map[string]string{"GOOSE_PATH_ROOT": root, "GOOSE_PROVIDER": "custom_wire_api", "GOOSE_MODEL": model}), provider.Settings{})
		if err != nil {
			t.Fatal(err)
		}
		if err := ask(r); err != nil {
			t.Fatal(err)
		}
		return rec.last()
	}
	chat := `,"wire_api":"chat_completions"`
	for _, c := range []struct{ base, wire, model, want string }{
		{"https://gw.example/proxy/v2/responses", chat, "Llama", "https://gw.example/proxy/v2/responses"},
		{"https://gw.example/proxy/v2/responses", chat, "llama", "https://gw.example/proxy/v2/chat/completions"},
		{"https://gw.example/proxy/v2/responses", chat, "gpt-5", "https://gw.example/proxy/v2/chat/completions"},
		{"https://gw.example/v1/chat/completions", chat, "gpt-5", "https://gw.example/v1/chat/completions"},
		{"https://gw.example/v1/chat/completions", "", "gpt-5", "https://gw.example/v1/responses"},
		{"https://gw.example/v1/chat/completions", `,"wire_api":"responses"`, "gpt-4o", "https://gw.example/v1/responses"},
		{"https://gw.example/v1/chat/completions", "", "gpt-4o", "https://gw.example/v1/chat/completions"},
	} {
		if got := send(c.base, c.wire, c.model); got != c.want {
			t.Errorf("%s%s %s: sent to %s, want %s", c.base, c.wire, c.model, got, c.want)
		}
	}
}
