// Package leaktest holds the secrets the redaction tests plant and the forms they look for in an output,
// computed independently of the redactor under test.
package leaktest

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Keys have the characters JSON escapes (<>&"\) and those URLs escape (+/=).
var Keys = []string{`sk-a<b>c&d"e\f-0123456789`, `sk-q+r/s=t-9876543210==`}

// Forms are the ways key can be written in an output: raw, JSON-escaped (HTML-safe or not, once and twice),
// URL query and path escaped, base64 (standard and URL, padded or not).
func Forms(key string) []string {
	html, _ := json.Marshal(key)
	var plain bytes.Buffer
	enc := json.NewEncoder(&plain)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(key)
	twice, _ := json.Marshal(string(html))
	forms := []string{key, strings.Trim(string(html), `"`), strings.Trim(strings.TrimSpace(plain.String()), `"`),
		strings.Trim(string(twice), `"`), url.QueryEscape(key), url.PathEscape(key)}
	for _, e := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		forms = append(forms, e.EncodeToString([]byte(key)))
	}
	return forms
}

// AssertNone fails t when data holds any form of key.
func AssertNone(t testing.TB, where string, data []byte, key string) {
	t.Helper()
	for _, f := range Forms(key) {
		if bytes.Contains(data, []byte(f)) {
			t.Errorf("%s holds the key %q as %q:\n%s", where, key, f, data)
		}
	}
}

// AssertNoneInFiles fails t when any file under dir holds any form of key; it returns the names of the
// files it searched, so a caller can check the ones it expects were there.
func AssertNoneInFiles(t testing.TB, dir, key string) []string {
	t.Helper()
	var names []string
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Errorf("read %s: %v", p, err)
			return nil
		}
		names = append(names, d.Name())
		AssertNone(t, p, data, key)
		return nil
	})
	return names
}
