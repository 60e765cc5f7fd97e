// The tom ("Top Of Mind") platform extension: no tools; the per-turn context gets GOOSE_MOIM_MESSAGE_TEXT
// and the file GOOSE_MOIM_MESSAGE_FILE names, each cut to 64 KiB, read from the process environment only.

package platform

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/goose-ls/goose-ls/agent/tools"
	"github.com/goose-ls/goose-ls/recipe"
)

// TomMaxBytes is goose's cap on each part of tom's context.
const TomMaxBytes = 65536

// Tom is the tom extension.
type Tom struct {
	// Getenv reads the two variables (nil: the process environment; goose does not read config.yaml here).
	Getenv func(string) string
	// Home expands a leading `~` (nil: os.UserHomeDir).
	Home func() (string, error)
}

// Name is goose's config key.
func (t *Tom) Name() string { return "tom" }

// Unprefixed is false (tom has no tools).
func (t *Tom) Unprefixed() bool { return false }

// Instructions are none: tom only adds to the per-turn context.
func (t *Tom) Instructions() string { return "" }

// Tools are none.
func (t *Tom) Tools() []tools.Spec { return nil }

// Close does nothing.
func (t *Tom) Close() error { return nil }

// Call answers as goose's tom does: it has no tools.
func (t *Tom) Call(_ context.Context, tool string, _ json.RawMessage) tools.Result {
	return errorResult("tom has no tools (called: %s)", tool)
}

// TurnContext is the text and the file's content joined by a line break ("" when both are blank).
func (t *Tom) TurnContext() string {
	getenv := t.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	var parts []string
	if text := getenv("GOOSE_MOIM_MESSAGE_TEXT"); !isBlank(text) {
		parts = append(parts, cutUTF8(text, TomMaxBytes))
	}
	if path := getenv("GOOSE_MOIM_MESSAGE_FILE"); path != "" {
		content, err := t.readFile(t.expandHome(path))
		if err != nil {
			slog.Debug("tom: GOOSE_MOIM_MESSAGE_FILE not read", "path", path, "err", err)
		} else if !isBlank(content) {
			parts = append(parts, content)
		}
	}
	return strings.Join(parts, "\n")
}

// expandHome expands `~` and `~/…` as shellexpand::tilde does.
func (t *Tom) expandHome(path string) string {
	if path != "~" && !strings.HasPrefix(path, "~/") {
		return path
	}
	home := t.Home
	if home == nil {
		home = os.UserHomeDir
	}
	dir, err := home()
	if err != nil || dir == "" {
		return path
	}
	return filepath.Join(dir, path[1:])
}

// readFile reads at most TomMaxBytes of a regular file, opened so that a FIFO or device cannot block;
// invalid UTF-8 becomes U+FFFD and the text is cut on a character boundary.
func (t *Tom) readFile(path string) (string, error) {
	fh, err := os.OpenFile(path, os.O_RDONLY|recipe.OpenNonBlocking, 0)
	if err != nil {
		return "", err
	}
	defer fh.Close()
	if err := recipe.CheckRegular(fh); err != nil {
		return "", err
	}
	data, err := io.ReadAll(io.LimitReader(fh, TomMaxBytes))
	if err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	return cutUTF8(strings.ToValidUTF8(string(data), "\uFFFD"), TomMaxBytes), nil
}

// cutUTF8 keeps the longest prefix of s of at most max bytes that ends on a character boundary.
func cutUTF8(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}

// isBlank is Rust's str::trim().is_empty(): only Unicode white space.
func isBlank(s string) bool {
	return strings.TrimFunc(s, unicode.IsSpace) == ""
}
