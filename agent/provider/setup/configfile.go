// The set-up's change to goose's config.yaml, as goose's `goose configure` makes it: goose's provider
// migration (flat GOOSE_PROVIDER/GOOSE_MODEL/*_configured keys into the `providers:` block), the
// provider's settings as top-level keys, then `active_provider` and `providers.<name>` (enabled, model,
// configured), written atomically. Unlike goose, which re-serialises the file, the user's other keys
// keep their order, styles and comments; a file that is not YAML is refused, not replaced.

package setup

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Change is what the set-up writes to config.yaml.
type Change struct {
	Provider, Model string
	// Settings are non-secret variables the provider needs, written as top-level keys (goose's set_param).
	Settings map[string]string
}

// maxConfig bounds the config.yaml read: goose's own files are a few kilobytes.
const maxConfig = 8 << 20

// ConfigPath is goose's config.yaml in configDir.
func ConfigPath(configDir string) string { return filepath.Join(configDir, "config.yaml") }

// Write applies ch to configDir/config.yaml (created with its folder when missing) and returns the
// path written. Nothing is written when the file cannot be read as a YAML mapping.
func Write(configDir string, ch Change) (string, error) {
	if configDir == "" {
		return "", errors.New("goose's config folder is unknown: set HOME (or GOOSE_PATH_ROOT)")
	}
	path, err := writeTarget(ConfigPath(configDir))
	if err != nil {
		return "", err
	}
	data, mode, err := readConfig(path)
	if err != nil {
		return "", err
	}
	doc, err := parseConfig(data)
	if err != nil {
		return "", fmt.Errorf("%s: %w; nothing was written (fix the file or move it away, then run the set-up again)", path, err)
	}
	root := doc.Content[0]
	migrateProviders(root)
	names := make([]string, 0, len(ch.Settings))
	for k := range ch.Settings {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		setKey(root, k, stringNode(ch.Settings[k]))
	}
	setKey(root, activeProviderKey, stringNode(ch.Provider))
	providers := value(root, providersKey)
	if providers == nil || providers.Kind != yaml.MappingNode {
		providers = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	}
	setKey(root, providersKey, providers)
	setKey(providers, ch.Provider, providerEntry(ch.Model))
	var out bytes.Buffer
	enc := yaml.NewEncoder(&out)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	if err := enc.Close(); err != nil {
		return "", err
	}
	return path, writeAtomic(path, out.Bytes(), mode)
}

const (
	providersKey      = "providers"
	activeProviderKey = "active_provider"
	configuredSuffix  = "_configured"
)

// writeTarget is the file to write: config.yaml, or the file its symlink names (one level, as goose
// follows it, so the link stays a link).
func writeTarget(path string) (string, error) {
	st, err := os.Lstat(path)
	if err != nil || st.Mode()&fs.ModeSymlink == 0 {
		return path, nil
	}
	link, err := os.Readlink(path)
	if err != nil {
		return "", err
	}
	if !filepath.IsAbs(link) {
		link = filepath.Join(filepath.Dir(path), link)
	}
	if st, err := os.Lstat(link); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		return "", fmt.Errorf("%s: too many symlink levels (goose follows one)", path)
	}
	return link, nil
}

// readConfig reads the file and its permissions (a missing file is empty, written 0644 like goose's).
func readConfig(path string) ([]byte, fs.FileMode, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0o644, nil
	}
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	if !st.Mode().IsRegular() {
		return nil, 0, fmt.Errorf("%s is not a regular file", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxConfig+1))
	if err != nil {
		return nil, 0, err
	}
	if len(data) > maxConfig {
		return nil, 0, fmt.Errorf("%s is larger than %d bytes", path, maxConfig)
	}
	return data, st.Mode().Perm(), nil
}

// parseConfig reads config.yaml as a document holding one mapping (an empty file, or one holding only
// comments or null, is an empty mapping; its comments are kept).
func parseConfig(data []byte) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("not valid YAML: %w", err)
	}
	var more yaml.Node
	if err := dec.Decode(&more); !errors.Is(err, io.EOF) {
		return nil, errors.New("holds more than one YAML document")
	}
	if doc.Kind == 0 {
		doc = yaml.Node{Kind: yaml.DocumentNode}
	}
	if len(doc.Content) == 0 {
		// the parser keeps no node for a file of comments alone: they stay above the first key
		doc.Content = []*yaml.Node{{Kind: yaml.MappingNode, Tag: "!!map", HeadComment: commentLines(data)}}
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		*root = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", HeadComment: root.HeadComment, LineComment: root.LineComment, FootComment: root.FootComment}
	}
	if root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("line %d: the file is not a YAML mapping of settings", root.Line)
	}
	return &doc, nil
}

// commentLines are the comment lines of a file that holds nothing else.
func commentLines(data []byte) string {
	var lines []string
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}

// migrateProviders is goose's migrate_provider_config, run on every write: with a `providers:` block,
// the flat GOOSE_PROVIDER, GOOSE_MODEL and *_configured keys are dropped; without one, the providers they
// name become its entries (the active one with GOOSE_MODEL), `active_provider` is set, and they go.
func migrateProviders(root *yaml.Node) {
	isFlat := func(k string) bool {
		return k == "GOOSE_PROVIDER" || k == "GOOSE_MODEL" || strings.HasSuffix(k, configuredSuffix)
	}
	if value(root, providersKey) == nil {
		active, _ := stringValue(value(root, "GOOSE_PROVIDER"))
		model, _ := stringValue(value(root, "GOOSE_MODEL"))
		var found []string
		for i := 0; i+1 < len(root.Content); i += 2 {
			if k := root.Content[i].Value; strings.HasSuffix(k, configuredSuffix) {
				found = append(found, strings.TrimSuffix(k, configuredSuffix))
			}
		}
		if active != "" && !slices.Contains(found, active) {
			found = append(found, active)
		}
		if len(found) == 0 && active == "" {
			return
		}
		providers := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		for _, name := range found {
			m := ""
			if name == active {
				m = model
			}
			setKey(providers, name, providerEntry(m))
		}
		setKey(root, providersKey, providers)
		if active != "" {
			setKey(root, activeProviderKey, stringNode(active))
		}
	}
	kept := root.Content[:0]
	for i := 0; i+1 < len(root.Content); i += 2 {
		if !isFlat(root.Content[i].Value) {
			kept = append(kept, root.Content[i], root.Content[i+1])
		}
	}
	root.Content = kept
}

// providerEntry is goose's ProviderEntry for the active provider, in its field order.
func providerEntry(model string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	setKey(n, "enabled", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"})
	setKey(n, "model", stringNode(model))
	setKey(n, "configured", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"})
	return n
}

// stringNode is a YAML string (quoted by the encoder when it would read as another type).
func stringNode(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
}

// stringValue reads a string scalar (goose's get_param::<String> refuses other types).
func stringValue(n *yaml.Node) (string, bool) {
	if n == nil || n.Kind != yaml.ScalarNode || n.Tag != "!!str" {
		return "", false
	}
	return n.Value, true
}

// value is the mapping's value for key (nil when absent).
func value(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// setKey replaces key's value where it stands (its key's comments kept), or appends the pair, as
// goose's ordered map does.
func setKey(m *yaml.Node, key string, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			old := m.Content[i+1]
			v.LineComment, v.FootComment = old.LineComment, old.FootComment
			if v.Tag == "!!str" && old.Kind == yaml.ScalarNode {
				v.Style = old.Style &^ (yaml.LiteralStyle | yaml.FoldedStyle)
			}
			m.Content[i+1] = v
			return
		}
	}
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, v)
}

// writeAtomic replaces path with data through a temporary file in its folder, so a reader (goose, a
// run of goose-ls) sees the old file or the new one, never a part.
func writeAtomic(path string, data []byte, mode fs.FileMode) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".config.yaml.*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename there is nothing left to remove
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
