// goose:// recipe deeplinks (recipe_deeplink.rs, goose-cli commands/recipe.rs): the recipe's JSON in
// URL-safe base64 without padding, parameter values as extra query pairs.

package library

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/goose-ls/goose-ls/recipe/source"
	"github.com/goose-ls/goose-ls/recipe/yamltree"
)

// DeeplinkPrefix starts every recipe deeplink.
const DeeplinkPrefix = "goose://recipe?config="

// Param is one `-p KEY=VALUE` of a deeplink, kept in the order given (goose's order is a hash map's).
type Param struct{ Key, Value string }

// EncodeConfig is recipe_deeplink::encode: serde_json of the recipe, base64 URL-safe without padding.
func EncodeConfig(r *Recipe) string {
	return base64.RawURLEncoding.EncodeToString([]byte(r.JSON()))
}

// Deeplink is the full URL goose prints: the config, then `&KEY=VALUE` per parameter, both URL-encoded
// as the urlencoding crate does (everything but ASCII letters, digits and `-_.~` percent-encoded).
func Deeplink(r *Recipe, params []Param) string {
	var b strings.Builder
	b.WriteString(DeeplinkPrefix)
	b.WriteString(EncodeConfig(r))
	for _, p := range params {
		b.WriteString("&" + urlEncode(p.Key) + "=" + urlEncode(p.Value))
	}
	return b.String()
}

func urlEncode(s string) string {
	const upperhex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(upperhex[c>>4])
		b.WriteByte(upperhex[c&15])
	}
	return b.String()
}

// ErrDecode is goose's "Failed to decode recipe deeplink".
var ErrDecode = errors.New("Failed to decode recipe deeplink")

// DecodeDeeplink reads a deeplink (the whole goose:// URL, or only its config value) back into the
// recipe and its parameters. As goose, the config may be URL-safe base64 without padding, or (legacy)
// standard base64, possibly URL-encoded.
func DecodeDeeplink(link string) (*Recipe, []Param, error) {
	config := link
	var params []Param
	if rest, ok := strings.CutPrefix(link, DeeplinkPrefix); ok {
		parts := strings.Split(rest, "&")
		config = parts[0]
		for _, kv := range parts[1:] {
			k, v, _ := strings.Cut(kv, "=")
			key, err1 := url.PathUnescape(k)
			val, err2 := url.PathUnescape(v)
			if err1 != nil || err2 != nil {
				return nil, nil, fmt.Errorf("%w: bad parameter %q", ErrDecode, kv)
			}
			params = append(params, Param{Key: key, Value: val})
		}
	}
	if data, err := base64.RawURLEncoding.DecodeString(config); err == nil {
		if r, err := decodeJSON(data); err == nil {
			return r, params, nil
		}
	}
	if unescaped, err := url.PathUnescape(config); err == nil {
		if data, err := base64.StdEncoding.DecodeString(unescaped); err == nil {
			if r, err := decodeJSON(data); err == nil {
				return r, params, nil
			}
		}
	}
	return nil, nil, ErrDecode
}

// decodeJSON is serde_json::from_str::<Recipe> (no load-time additions: the link already holds them).
func decodeJSON(data []byte) (*Recipe, error) {
	doc, err := yamltree.Parse(source.NewLineIndex(data))
	if err != nil {
		return nil, err
	}
	return Decode(doc.Root)
}
