package main

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
)

// linuxRelease builds the linux-x86_64 archive once per test process (the slowest step of these tests).
var linuxRelease = sync.OnceValues(func() (string, error) {
	out, err := os.MkdirTemp("", "goose-ls-release-test-")
	if err != nil {
		return "", err
	}
	_, err = BuildArchives(context.Background(), testOptions(out))
	return out, err
})

var linuxX86 = Platform{"linux-x86_64", "linux", "amd64"}

func testOptions(out string) Options {
	root, _ := filepath.Abs("../..")
	return Options{Root: root, Version: "v1.2.3", Commit: "0123456789ab", ModTime: time.Unix(1764288000, 0).UTC(),
		Out: out, Platforms: []Platform{linuxX86}}
}

func TestReleaseArchivesAreReproducible(t *testing.T) {
	first, err := linuxRelease()
	if err != nil {
		t.Fatal(err)
	}
	second := t.TempDir()
	if _, err := BuildArchives(context.Background(), testOptions(second)); err != nil {
		t.Fatal(err)
	}
	name := ArchiveName("v1.2.3", linuxX86)
	a, _ := os.ReadFile(filepath.Join(first, name))
	b, _ := os.ReadFile(filepath.Join(second, name))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Fatalf("two builds of one commit differ (%d and %d bytes)", len(a), len(b))
	}
	sums, _ := os.ReadFile(filepath.Join(first, "SHA256SUMS"))
	if !regexp.MustCompile(`^[0-9a-f]{64}  ` + regexp.QuoteMeta(name) + "\n$").Match(sums) {
		t.Errorf("SHA256SUMS = %q", sums)
	}
	entries := untar(t, a, "")
	for name, wantMode := range map[string]int64{"goose-ls": 0o755, "goose-ls-agent": 0o755, "README.md": 0o644, "LICENSE": 0o644} {
		if got, ok := entries[name]; !ok || got != wantMode {
			t.Errorf("archive entry %s: mode %o present %v, want %o", name, got, ok, wantMode)
		}
	}
	if len(entries) != 4 {
		t.Errorf("archive holds %v", entries)
	}
	for _, exe := range []string{"goose-ls", "goose-ls-agent"} {
		data := entryData(t, a, exe)
		if root := testOptions("").Root; bytes.Contains(data, []byte(root)) {
			t.Errorf("%s holds the build path %s (not -trimpath)", exe, root)
		}
	}
}

// TestArchiveStartsAsTheRegistryLaunches downloads the archive from a local HTTP server, unpacks it,
// starts `./goose-ls acp` in the unpacked folder as the registry's launcher does, and runs a recipe over
// ACP against a scripted provider.
func TestArchiveStartsAsTheRegistryLaunches(t *testing.T) {
	dist, err := linuxRelease()
	if err != nil {
		t.Fatal(err)
	}
	files := httptest.NewServer(http.StripPrefix("/v1.2.3/", http.FileServer(http.Dir(dist))))
	defer files.Close()
	entry, err := RegistryEntry("v1.2.3", files.URL)
	if err != nil {
		t.Fatal(err)
	}
	var parsed struct {
		Distribution struct {
			Binary map[string]struct {
				Archive, Cmd string
				Args         []string
			}
		}
	}
	if err := json.Unmarshal(entry, &parsed); err != nil {
		t.Fatal(err)
	}
	target := parsed.Distribution.Binary["linux-x86_64"]
	resp, err := http.Get(target.Archive)
	if err != nil {
		t.Fatal(err)
	}
	archive, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: %s", target.Archive, resp.Status)
	}
	dir := t.TempDir()
	untar(t, archive, dir)

	srv := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Text: "Hello from the released agent."}))
	defer srv.Close()
	home := t.TempDir()
	work := filepath.Join(home, "work")
	os.MkdirAll(work, 0o755)
	recipe := "version: 1.0.0\ntitle: Greet\ndescription: Greets someone\nprompt: Say hello to {{ name }}.\nparameters:\n" +
		"  - key: name\n    input_type: string\n    requirement: required\n    description: who\n"
	if err := os.WriteFile(filepath.Join(work, "greet.yaml"), []byte(recipe), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(dir, strings.TrimPrefix(target.Cmd, "./")), target.Args...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "GOOSE_PATH_ROOT=" + filepath.Join(home, "goose"),
		"GOOSE_PROVIDER=openai", "GOOSE_MODEL=gpt-4o", "OPENAI_API_KEY=sk-release-test", "OPENAI_HOST=" + srv.URL}
	c := startACP(t, cmd)
	defer c.close()

	init := c.call(t, "initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": map[string]any{}})
	var initRes struct {
		AgentInfo   struct{ Name, Version string } `json:"agentInfo"`
		AuthMethods []map[string]any               `json:"authMethods"`
	}
	json.Unmarshal(init, &initRes)
	if initRes.AgentInfo.Version != "v1.2.3" && initRes.AgentInfo.Version != "1.2.3" {
		t.Errorf("initialize agentInfo = %+v, want the release's version", initRes.AgentInfo)
	}
	// the registry lists agents that offer an auth method of type agent or terminal: goose-ls's is the
	// terminal set-up, the archive's command run with `configure`
	terminal := false
	for _, m := range initRes.AuthMethods {
		args, _ := m["args"].([]any)
		terminal = terminal || (m["type"] == "terminal" && len(args) > 0 && args[0] == "configure")
	}
	if !terminal {
		t.Errorf("initialize authMethods = %v, want a terminal method whose args start with configure", initRes.AuthMethods)
	}
	newRes := c.call(t, "session/new", map[string]any{"cwd": work, "mcpServers": []any{}})
	var sess struct {
		SessionID string `json:"sessionId"`
	}
	json.Unmarshal(newRes, &sess)
	if sess.SessionID == "" {
		t.Fatalf("session/new answered %s", newRes)
	}
	prompt := c.call(t, "session/prompt", map[string]any{"sessionId": sess.SessionID,
		"prompt": []any{map[string]any{"type": "text", "text": "/greet name=Ada"}}})
	if !strings.Contains(string(prompt), "end_turn") {
		t.Errorf("session/prompt answered %s", prompt)
	}
	if got := c.agentText(); !strings.Contains(got, "Hello from the released agent.") {
		t.Errorf("agent text %q; stderr:\n%s", got, c.stderr.String())
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || !strings.Contains(fmt.Sprint(reqs[0]), "Say hello to Ada.") {
		t.Errorf("the provider saw %d requests: %v", len(reqs), reqs)
	}
}

func TestRegistryEntryValidatesAgainstTheRegistrySchema(t *testing.T) {
	schema, err := jsonschema.Compile("../../packaging/acp-registry/agent.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	generated, err := RegistryEntry("v1.2.3", DownloadBase)
	if err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile("../../packaging/acp-registry/goose-ls/agent.json")
	if err != nil {
		t.Fatal(err)
	}
	urlVersion := regexp.MustCompile(`/(?:download|releases)/v?([\d.]+)/`) // the registry validator's rule
	for name, doc := range map[string][]byte{"generated": generated, "committed": committed} {
		var v map[string]any
		if err := json.Unmarshal(doc, &v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := schema.Validate(v); err != nil {
			t.Errorf("%s agent.json: %v", name, err)
		}
		binary := v["distribution"].(map[string]any)["binary"].(map[string]any)
		if len(binary) != len(Platforms) {
			t.Errorf("%s: %d platforms", name, len(binary))
		}
		for plat, raw := range binary {
			target := raw.(map[string]any)
			url := target["archive"].(string)
			m := urlVersion.FindStringSubmatch(url)
			if m == nil || m[1] != v["version"] || strings.Contains(url, "/latest/") {
				t.Errorf("%s %s: archive URL %s does not carry version %v", name, plat, url, v["version"])
			}
			if args := fmt.Sprint(target["args"]); args != "[acp]" {
				t.Errorf("%s %s: args %s", name, plat, args)
			}
		}
	}
	var bad map[string]any
	json.Unmarshal(generated, &bad)
	bad["id"] = "Goose LS"
	if schema.Validate(bad) == nil {
		t.Error("the schema accepted an id with capitals and a space: the validation proves nothing")
	}
}

func TestRegistryIconFollowsTheRegistryRules(t *testing.T) {
	svg, err := os.ReadFile("../../packaging/acp-registry/goose-ls/icon.svg")
	if err != nil {
		t.Fatal(err)
	}
	if errs := iconProblems(string(svg)); len(errs) > 0 {
		t.Errorf("icon.svg: %v", errs)
	}
	if errs := iconProblems(strings.Replace(string(svg), `stroke="currentColor"`, `stroke="#000"`, 1)); len(errs) == 0 {
		t.Error("a hard-coded stroke colour passed the icon rules")
	}
}

// iconProblems applies agentclientprotocol/registry's icon rules (build_registry.py): 16×16 and square
// (width/height, else the viewBox), fill and stroke only currentColor/none/inherit, currentColor used.
func iconProblems(svg string) []string {
	var errs []string
	w := regexp.MustCompile(`<svg[^>]*\swidth=["'](\d+)`).FindStringSubmatch(svg)
	h := regexp.MustCompile(`<svg[^>]*\sheight=["'](\d+)`).FindStringSubmatch(svg)
	if w == nil || h == nil {
		vb := regexp.MustCompile(`viewBox=["'][\d.]+\s+[\d.]+\s+([\d.]+)\s+([\d.]+)`).FindStringSubmatch(svg)
		if vb == nil {
			return []string{"no width/height and no viewBox"}
		}
		w, h = []string{"", vb[1]}, []string{"", vb[2]}
	}
	if w[1] != "16" || h[1] != "16" {
		errs = append(errs, "not 16x16: "+w[1]+"x"+h[1])
	}
	allowed := map[string]bool{"currentcolor": true, "none": true, "inherit": true}
	for _, attr := range []string{"fill", "stroke"} {
		for _, m := range regexp.MustCompile(`(?i)\b`+attr+`\s*=\s*["']([^"']+)["']`).FindAllStringSubmatch(svg, -1) {
			if !allowed[strings.ToLower(strings.TrimSpace(m[1]))] {
				errs = append(errs, "hard-coded "+attr+"="+m[1])
			}
		}
		for _, m := range regexp.MustCompile(`(?i)\bstyle\s*=\s*["']([^"']+)["']`).FindAllStringSubmatch(svg, -1) {
			if s := regexp.MustCompile(`(?i)\b` + attr + `\s*:\s*([^;]+)`).FindStringSubmatch(m[1]); s != nil && !allowed[strings.ToLower(strings.TrimSpace(s[1]))] {
				errs = append(errs, "hard-coded style "+attr+": "+s[1])
			}
		}
	}
	if !strings.Contains(strings.ToLower(svg), "currentcolor") {
		errs = append(errs, "currentColor not used")
	}
	return errs
}

// untar lists a tar.gz's regular files with their modes; with dir, it also writes them there.
func untar(t *testing.T, archive []byte, dir string) map[string]int64 {
	t.Helper()
	gz, err := gzip.NewReader(bytes.NewReader(archive))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	out := map[string]int64{}
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out[hdr.Name] = hdr.Mode
		if dir != "" {
			data, _ := io.ReadAll(tr)
			if err := os.WriteFile(filepath.Join(dir, hdr.Name), data, os.FileMode(hdr.Mode)); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func entryData(t *testing.T, archive []byte, name string) []byte {
	t.Helper()
	gz, _ := gzip.NewReader(bytes.NewReader(archive))
	tr := tar.NewReader(gz)
	for {
		hdr, err := tr.Next()
		if err != nil {
			t.Fatalf("%s not in the archive", name)
		}
		if hdr.Name == name {
			data, _ := io.ReadAll(tr)
			return data
		}
	}
}

// acpConn is a minimal ACP client over newline-delimited JSON-RPC: it answers the agent's requests with
// "method not found" (a client without fs or terminal abilities) and keeps the agent's message text.
type acpConn struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	lines  *bufio.Scanner
	stderr bytes.Buffer
	nextID int
	text   strings.Builder
}

func startACP(t *testing.T, cmd *exec.Cmd) *acpConn {
	t.Helper()
	c := &acpConn{cmd: cmd}
	cmd.Stderr = &c.stderr
	var err error
	if c.in, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c.lines = bufio.NewScanner(out)
	c.lines.Buffer(make([]byte, 1<<20), 16<<20)
	return c
}

func (c *acpConn) send(t *testing.T, msg map[string]any) {
	t.Helper()
	msg["jsonrpc"] = "2.0"
	b, _ := json.Marshal(msg)
	if _, err := c.in.Write(append(b, '\n')); err != nil {
		t.Fatal(err)
	}
}

// call sends a request and reads until its answer, handling what the agent sends meanwhile.
func (c *acpConn) call(t *testing.T, method string, params any) json.RawMessage {
	t.Helper()
	c.nextID++
	id := c.nextID
	c.send(t, map[string]any{"id": id, "method": method, "params": params})
	deadline := time.AfterFunc(2*time.Minute, func() { c.cmd.Process.Kill() })
	defer deadline.Stop()
	for c.lines.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(c.lines.Bytes(), &m); err != nil {
			t.Fatalf("agent wrote a line that is not JSON: %q", c.lines.Text())
		}
		switch {
		case m.Method != "" && m.ID != nil:
			c.send(t, map[string]any{"id": m.ID, "error": map[string]any{"code": -32601, "message": "not supported by this client"}})
		case m.Method == "session/update":
			var u struct {
				Update struct {
					SessionUpdate string `json:"sessionUpdate"`
					Content       struct{ Text string }
				} `json:"update"`
			}
			json.Unmarshal(m.Params, &u)
			if u.Update.SessionUpdate == "agent_message_chunk" {
				c.text.WriteString(u.Update.Content.Text)
			}
		case string(m.ID) == fmt.Sprint(id):
			if m.Error != nil {
				t.Fatalf("%s: error %s\nstderr:\n%s", method, m.Error, c.stderr.String())
			}
			return m.Result
		}
	}
	t.Fatalf("%s: the agent closed its output\nstderr:\n%s", method, c.stderr.String())
	return nil
}

func (c *acpConn) agentText() string { return c.text.String() }

func (c *acpConn) close() {
	c.in.Close()
	done := make(chan struct{})
	go func() { c.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		c.cmd.Process.Kill()
		<-done
	}
}
