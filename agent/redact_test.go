// The Redactor: every form of a secret, the short-value rule, JSON kept valid, secrets split across
// streamed pieces, events and errors, and the slog handler.
package agent

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/tools"
	"github.com/goose-ls/goose-ls/internal/leaktest"
)

// The keys of the redaction tests: JSON escapes <>&"\ (HTML-safe \u003c… by encoding/json), URLs
// escape +/=, base64 is used as is.
var testSecrets = leaktest.Keys

// leakForms lists every form a test looks for in an output.
func leakForms(secret string) []string {
	forms := secretForms(secret)
	// a reader would also recognise the value with its quotes, as written by encoding/json
	b, _ := json.Marshal(secret)
	return append(forms, string(b))
}

// assertNoSecret fails when out holds any form of any test secret.
func assertNoSecret(t *testing.T, where, out string) {
	t.Helper()
	for _, s := range testSecrets {
		for _, f := range leakForms(s) {
			if strings.Contains(out, f) {
				t.Errorf("%s holds the secret %q in the form %q:\n%s", where, s, f, out)
			}
		}
	}
}

func testRedactor() *Redactor {
	r := &Redactor{}
	r.Add(testSecrets...)
	return r
}

func TestRedactHidesEveryForm(t *testing.T) {
	r := testRedactor()
	for _, s := range testSecrets {
		html, _ := json.Marshal(s)
		var plain bytes.Buffer
		enc := json.NewEncoder(&plain)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(s)
		twice, _ := json.Marshal(string(html))
		cases := map[string]string{
			"raw":              s,
			"json":             string(html),
			"json-no-html":     strings.TrimSpace(plain.String()),
			"json-in-json":     string(twice),
			"url-query":        "https://h/x?key=" + url.QueryEscape(s) + "&b=1",
			"url-path":         "https://h/" + url.PathEscape(s) + "/x",
			"base64":           base64.StdEncoding.EncodeToString([]byte(s)),
			"base64-url":       base64.URLEncoding.EncodeToString([]byte(s)),
			"base64-unpadded":  base64.RawStdEncoding.EncodeToString([]byte(s)),
			"error-body":       `{"error":{"message":"Incorrect API key provided: ` + strings.Trim(string(html), `"`) + `."}}`,
			"twice-in-a-line":  s + " and " + s,
			"between-any-text": "before" + s + "after",
		}
		for name, in := range cases {
			got := r.Redact(in)
			if !strings.Contains(got, RedactedMarker) {
				t.Errorf("%s: %q not redacted: %q", name, in, got)
			}
			assertNoSecret(t, name, got)
		}
	}
	// the JSON forms differ from the raw one: the test would prove nothing otherwise
	if s := testSecrets[0]; jsonEscape(s, true) == s || !strings.Contains(jsonEscape(s, true), `\u003c`) {
		t.Fatalf("JSON form of %q: %q", s, jsonEscape(s, true))
	}
	if s := testSecrets[1]; url.QueryEscape(s) == s || url.PathEscape(s) == s {
		t.Fatalf("URL forms of %q are the raw value", s)
	}
}

func TestShortValuesAreNotSecrets(t *testing.T) {
	r := &Redactor{}
	r.Add("1", "true", "8080", "debug", "REDACT", "") // shorter than MinSecretLen, or inside the marker
	in := "debug=true port=8080 level 1 [REDACTED]"
	if got := r.Redact(in); got != in {
		t.Errorf("short values redacted: %q", got)
	}
	r.Add("abcdef") // MinSecretLen bytes: redacted
	if got := r.Redact("x abcdef y"); got != "x "+RedactedMarker+" y" {
		t.Errorf("got %q", got)
	}
	var none *Redactor
	if none.Redact("abcdef") != "abcdef" || string(none.RedactJSON(json.RawMessage(`{}`))) != `{}` {
		t.Error("a nil redactor changed its input")
	}
}

func TestRedactJSONStaysValid(t *testing.T) {
	r := &Redactor{}
	r.Add(`abc","k":"zz`) // spans a string's end: replacing the raw text would break the syntax
	r.Add("plain-secret-1")
	in := json.RawMessage(`{"a":"abc","k":"zz","b":["plain-secret-1",2.50],"plain-secret-1":true}`)
	got := r.RedactJSON(in)
	if !json.Valid(got) {
		t.Fatalf("invalid JSON: %s", got)
	}
	if strings.Contains(string(got), "plain-secret-1") {
		t.Errorf("secret left: %s", got)
	}
	if !strings.Contains(string(got), "2.50") {
		t.Errorf("number rewritten: %s", got)
	}
	simple := r.RedactJSON(json.RawMessage(`{"command":"echo plain-secret-1"}`))
	if string(simple) != `{"command":"echo [REDACTED]"}` {
		t.Errorf("got %s", simple)
	}
}

// Every way of cutting the text into two or three pieces: the joined output never holds a secret, and
// text around it arrives unchanged.
func TestStreamCatchesSecretsSplitAcrossPieces(t *testing.T) {
	r := testRedactor()
	for _, s := range testSecrets {
		for _, form := range []string{s, jsonEscape(s, true)} {
			text := "Your key is " + form + ", keep it safe. <>&\"\\ +/= are fine."
			want := r.Redact(text)
			for i := 0; i <= len(text); i++ {
				for j := i; j <= len(text); j += 3 {
					st := r.Stream()
					var out strings.Builder
					for _, piece := range []string{text[:i], text[i:j], text[j:]} {
						got := st.Write(piece)
						assertNoSecret(t, fmt.Sprintf("piece output (cut %d,%d)", i, j), got)
						out.WriteString(got)
					}
					out.WriteString(st.Flush())
					if out.String() != want {
						t.Fatalf("cut %d,%d: got %q, want %q", i, j, out.String(), want)
					}
				}
			}
		}
	}
}

func TestStreamShowsTextThatCannotBeASecretAtOnce(t *testing.T) {
	r := testRedactor()
	st := r.Stream()
	if got := st.Write("Hello, world. "); got != "Hello, world. " {
		t.Errorf("ordinary text held back: %q", got)
	}
	if got := st.Write("sk-"); got != "" {
		t.Errorf("a possible secret's beginning was shown: %q", got)
	}
	if got := st.Write("ip it"); got != "sk-ip it" {
		t.Errorf("got %q", got)
	}
}

// Two secrets where one ends as the other begins: a cut between them must not show either.
func TestStreamWithOverlappingSecrets(t *testing.T) {
	r := &Redactor{}
	r.Add("ABCDEFGH", "FGHIJKLM")
	for i := 0; i <= 12; i++ {
		text := "xxABCDEFGHIJKLMyy"
		st := r.Stream()
		out := st.Write(text[:i]) + st.Write(text[i:]) + st.Flush()
		if strings.Contains(out, "ABCDEFGH") || strings.Contains(out, "FGHIJKLM") || out != r.Redact(text) {
			t.Errorf("cut %d: %q", i, out)
		}
	}
}

func TestRedactEventAndErrors(t *testing.T) {
	r := testRedactor()
	s := testSecrets[0]
	args, _ := json.Marshal(map[string]string{"command": "echo " + s})
	e := r.RedactEvent(Event{Kind: EventToolEnd, Text: s, Path: "/tmp/" + s,
		Call:   &provider.ToolCall{ID: "1", Name: "shell", Arguments: args},
		Result: &tools.Result{Text: "out: " + s},
		Err:    fmt.Errorf("wrapped: %w", &provider.Error{Provider: "openai", Kind: provider.ErrAuth, Status: 401, Message: "Incorrect API key provided: " + s}),
	})
	all := fmt.Sprintf("%s %s %s %s %s", e.Text, e.Path, e.Call.Arguments, e.Result.Text, e.Err)
	assertNoSecret(t, "event", all)
	if !json.Valid(e.Call.Arguments) {
		t.Errorf("arguments: %s", e.Call.Arguments)
	}
	if !strings.Contains(string(args), `\u003c`) {
		t.Fatalf("the test's arguments do not hold the JSON-escaped form: %s", args)
	}
	if provider.KindOf(e.Err) != provider.ErrAuth {
		t.Errorf("classification lost: %v", e.Err)
	}
	pe := r.RedactError(&provider.Error{Provider: "openai", Kind: provider.ErrAuth, Message: "key " + s})
	var got *provider.Error
	if !errors.As(pe, &got) || strings.Contains(got.Message, s) || got.Kind != provider.ErrAuth {
		t.Errorf("provider error: %#v", pe)
	}
	plain := errors.New("nothing secret")
	if r.RedactError(plain) != plain {
		t.Error("an error without secrets was replaced")
	}
	final := r.RedactEvent(Event{Kind: EventFinalOutput, Text: string(args)})
	if !json.Valid([]byte(final.Text)) || strings.Contains(final.Text, `\u003c`) {
		t.Errorf("final output: %s", final.Text)
	}
}

func TestRedactingLogHandler(t *testing.T) {
	r := testRedactor()
	var buf bytes.Buffer
	log := slog.New(RedactingHandler(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}), r))
	for _, s := range testSecrets {
		log.With("ctx", s).WithGroup("g").Debug("message "+s, "line", "stderr: "+s, "err", errors.New("failed: "+s),
			"any", []string{s}, slog.Group("inner", "v", s), "n", 42)
		log.Info("json", "body", string(must(json.Marshal(map[string]string{"k": s}))))
	}
	out := buf.String()
	assertNoSecret(t, "log", out)
	if !strings.Contains(out, "n=42") || strings.Count(out, RedactedMarker) < 12 {
		t.Errorf("log:\n%s", out)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// BenchmarkRedactStream: a 4 KiB reply in 7-byte deltas (the wiretest servers' size) with the two test
// keys and ten extension values registered.
func BenchmarkRedactStream(b *testing.B) {
	r := testRedactor()
	for i := range 10 {
		r.Add(fmt.Sprintf("extension-env-value-%02d", i))
	}
	text := strings.Repeat("Some ordinary assistant text, with sk- and ext prefixes now and then. ", 60)[:4096]
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		st := r.Stream()
		for i := 0; i < len(text); i += 7 {
			st.Write(text[i:min(i+7, len(text))])
		}
		st.Flush()
	}
}

// BenchmarkRedactEvent: a tool result of 50 kB (goose's shell output limit) through RedactEvent.
func BenchmarkRedactEvent(b *testing.B) {
	r := testRedactor()
	res := &tools.Result{Text: strings.Repeat("line of shell output 0123456789\n", 50000/32)}
	b.SetBytes(int64(len(res.Text)))
	for b.Loop() {
		r.RedactEvent(Event{Kind: EventToolEnd, Result: res, Call: &provider.ToolCall{Arguments: json.RawMessage(`{"command":"ls"}`)}})
	}
}
