// Deeplinks: goose's URL form, a link that decodes back to the recipe, legacy standard base64.

package library

import (
	"encoding/base64"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDeeplinkRoundTrip(t *testing.T) {
	r, err := Parse([]byte("title: Review {{ who }}\ndescription: Reviews é <code>\ninstructions: |\n  Look at {{ path }}\nextensions:\n- type: builtin\n  name: developer\nparameters:\n- {key: path, input_type: string, requirement: required, description: where}\n- {key: who, input_type: string, requirement: optional, default: me, description: who}\nsub_recipes:\n- {name: s, path: ./s.yaml, values: {k: v}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	link := Deeplink(r, []Param{{"path", "src/a b"}, {"who", "José&co"}})
	config, query, _ := strings.Cut(strings.TrimPrefix(link, DeeplinkPrefix), "&")
	if !strings.HasPrefix(link, DeeplinkPrefix) || strings.ContainsAny(config, "=+/") {
		t.Errorf("link %s: config must be URL-safe base64 without padding", link)
	}
	if query != "path=src%2Fa%20b&who=Jos%C3%A9%26co" {
		t.Errorf("query = %s", query)
	}
	raw, err := base64.RawURLEncoding.DecodeString(config)
	if err != nil || string(raw) != r.JSON() {
		t.Errorf("config decodes to %s (%v), want the recipe's JSON %s", raw, err, r.JSON())
	}
	back, params, err := DecodeDeeplink(link)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(r.JSON(), back.JSON()); diff != "" {
		t.Errorf("decoded recipe differs (-sent +decoded):\n%s", diff)
	}
	if diff := cmp.Diff([]Param{{"path", "src/a b"}, {"who", "José&co"}}, params); diff != "" {
		t.Errorf("params (-want +got):\n%s", diff)
	}
	// legacy: standard base64 (with + and / and padding), URL-encoded
	legacy := url.QueryEscape(base64.StdEncoding.EncodeToString([]byte(r.JSON())))
	back, _, err = DecodeDeeplink(legacy)
	if err != nil || back.JSON() != r.JSON() {
		t.Errorf("legacy decode: %v", err)
	}
	if _, _, err := DecodeDeeplink("not base64!"); err != ErrDecode {
		t.Errorf("garbage: %v", err)
	}
}
