// goose's recipe library methods (_goose/unstable/recipes/*, goose's custom_dispatch.rs and
// acp/server/recipe/mod.rs): list, parse, encode, decode, to-yaml and scan with goose's snake_case
// payloads and its errors. Any other extension method is not found.

package acp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	sdk "github.com/coder/acp-go-sdk"
	"go.yaml.in/yaml/v4"

	"github.com/goose-ls/goose-ls/agent/config"
	"github.com/goose-ls/goose-ls/recipe"
	"github.com/goose-ls/goose-ls/recipe/library"
	"github.com/goose-ls/goose-ls/recipe/source"
	"github.com/goose-ls/goose-ls/recipe/yamltree"
)

// maxExtParams bounds one extension request's parameters (a recipe is at most recipe.DefaultMaxSize).
const maxExtParams = 4 * recipe.DefaultMaxSize

// HandleExtensionMethod answers goose's recipe library methods.
func (a *Agent) HandleExtensionMethod(ctx context.Context, method string, params json.RawMessage) (any, error) {
	handler, ok := map[string]func(*yamltree.Node) (any, error){
		"_goose/unstable/recipes/list":    a.listRecipes,
		"_goose/unstable/recipes/parse":   parseRecipe,
		"_goose/unstable/recipes/encode":  encodeRecipe,
		"_goose/unstable/recipes/decode":  decodeRecipe,
		"_goose/unstable/recipes/to-yaml": recipeToYAML,
		"_goose/unstable/recipes/scan":    scanRecipe,
	}[method]
	if !ok {
		return nil, sdk.NewMethodNotFound(method)
	}
	n, err := requestParams(params)
	if err != nil {
		return nil, err
	}
	return handler(n)
}

// requestParams parses the params object; a value that is not one is serde's error.
func requestParams(raw json.RawMessage) (*yamltree.Node, error) {
	if len(raw) > maxExtParams {
		return nil, sdk.NewInvalidParams("params too large")
	}
	var compact bytes.Buffer
	if len(bytes.TrimSpace(raw)) == 0 {
		compact.WriteString("{}")
	} else if err := json.Compact(&compact, raw); err != nil {
		return nil, sdk.NewInvalidParams(err.Error())
	}
	doc, err := yamltree.Parse(source.NewLineIndex(compact.Bytes()))
	if err != nil {
		return nil, sdk.NewInvalidParams(err.Error())
	}
	n := doc.Root
	if n == nil || n.Kind != yamltree.Map {
		what := "null"
		if n != nil {
			what = n.Describe()
		}
		return nil, sdk.NewInvalidParams("invalid type: " + what + ", expected a map")
	}
	return n, nil
}

// requiredField is a field serde requires.
func requiredField(n *yamltree.Node, key string) (*yamltree.Node, error) {
	v := n.Get(key)
	if v == nil {
		return nil, sdk.NewInvalidParams("missing field `" + key + "`")
	}
	return v, nil
}

// stringField is a required string field.
func stringField(n *yamltree.Node, key string) (string, error) {
	v, err := requiredField(n, key)
	if err != nil {
		return "", err
	}
	if v.Kind != yamltree.Scalar || v.Type != yamltree.Str {
		return "", sdk.NewInvalidParams("invalid type: " + v.Describe() + ", expected a string")
	}
	return v.Value, nil
}

// recipeField is the request's `recipe` (a RecipeDto).
func recipeField(n *yamltree.Node) (*library.Recipe, error) {
	v, err := requiredField(n, "recipe")
	if err != nil {
		return nil, err
	}
	r, err := library.DecodeDTO(v)
	if err != nil {
		return nil, sdk.NewInvalidParams(err.Error())
	}
	return r, nil
}

// dtoOf is the recipe as goose answers it ("recipe: …" when it has no DTO form).
func dtoOf(r *library.Recipe) (json.RawMessage, error) {
	v, err := r.DTO()
	if err != nil {
		return nil, sdk.NewInvalidParams("recipe: " + err.Error())
	}
	return json.RawMessage(v.JSON()), nil
}

// noFiles reads nothing: goose validates a recipe that came over the wire without a folder.
type noFiles struct{}

func (noFiles) ReadFile(string) ([]byte, error) { return nil, fs.ErrNotExist }

// checkWithoutDir is goose's validate_recipe_template_from_content(content, None).
func checkWithoutDir(text []byte) (*recipe.File, error) {
	f := recipe.Check("recipe.yaml", text, &recipe.Options{FS: noFiles{}, NoSubRecipes: true})
	for _, d := range f.Diags {
		if d.Severity == recipe.SeverityError {
			return nil, sdk.NewInvalidParams("recipe: " + d.Message)
		}
	}
	return f, nil
}

// listRecipes is recipes/list: the library's manifests, newest first, with each recipe's slash command.
func (a *Agent) listRecipes(*yamltree.Node) (any, error) {
	lib, _ := a.library()
	commands := map[string]string{}
	for _, m := range a.slashMappings() {
		if _, seen := commands[m.RecipePath]; !seen {
			commands[m.RecipePath] = m.Command
		}
	}
	type entry struct {
		ID           string          `json:"id"`
		Recipe       json.RawMessage `json:"recipe"`
		FilePath     string          `json:"file_path"`
		LastModified string          `json:"last_modified"`
		SlashCommand string          `json:"slash_command,omitempty"`
	}
	out := []entry{}
	for _, m := range lib.Manifests() {
		v, err := m.Recipe.DTO()
		if err != nil {
			return nil, sdk.NewInternalError(err.Error())
		}
		out = append(out, entry{ID: m.ID, Recipe: json.RawMessage(v.JSON()), FilePath: m.Path, LastModified: m.LastModified, SlashCommand: commands[m.Path]})
	}
	return map[string]any{"recipes": out}, nil
}

// parseRecipe is recipes/parse {content} → {recipe}: the template as goose parses it, validated.
func parseRecipe(n *yamltree.Node) (any, error) {
	content, err := stringField(n, "content")
	if err != nil {
		return nil, err
	}
	f, err := checkWithoutDir([]byte(content))
	if err != nil {
		return nil, err
	}
	r, err := library.Template(f)
	if err != nil {
		return nil, sdk.NewInvalidParams("recipe: " + err.Error())
	}
	dto, err := dtoOf(r)
	if err != nil {
		return nil, err
	}
	return map[string]any{"recipe": dto}, nil
}

// encodeRecipe is recipes/encode {recipe} → {deeplink} (the config value, without goose://).
func encodeRecipe(n *yamltree.Node) (any, error) {
	r, err := recipeField(n)
	if err != nil {
		return nil, err
	}
	return map[string]any{"deeplink": library.EncodeConfig(r)}, nil
}

// decodeRecipe is recipes/decode {deeplink} → {recipe}, validated without a folder.
func decodeRecipe(n *yamltree.Node) (any, error) {
	link, err := stringField(n, "deeplink")
	if err != nil {
		return nil, err
	}
	r, err := library.DecodeConfig(link)
	if err != nil {
		return nil, sdk.NewInvalidParams("deeplink: " + err.Error())
	}
	text, err := r.GooseYAML()
	if err != nil {
		return nil, sdk.NewInvalidParams("recipe: " + err.Error())
	}
	if _, err := checkWithoutDir([]byte(text)); err != nil {
		return nil, err
	}
	dto, err := dtoOf(r)
	if err != nil {
		return nil, err
	}
	return map[string]any{"recipe": dto}, nil
}

// recipeToYAML is recipes/to-yaml {recipe} → {yaml}.
func recipeToYAML(n *yamltree.Node) (any, error) {
	r, err := recipeField(n)
	if err != nil {
		return nil, err
	}
	text, err := r.GooseYAML()
	if err != nil {
		return nil, sdk.NewInvalidParams("recipe: " + err.Error())
	}
	return map[string]any{"yaml": text}, nil
}

// scanRecipe is recipes/scan {recipe} → {has_security_warnings}.
func scanRecipe(n *yamltree.Node) (any, error) {
	r, err := recipeField(n)
	if err != nil {
		return nil, err
	}
	return map[string]any{"has_security_warnings": r.HasSecurityWarnings()}, nil
}

// slashMapping is one entry of goose's `slash_commands` setting (a command mapped to a recipe file).
type slashMapping struct {
	Command    string `yaml:"command"`
	RecipePath string `yaml:"recipe_path"`
}

// slashMappings reads `slash_commands` from goose's config.yaml (none when it is absent or not a list).
func (a *Agent) slashMappings() []slashMapping {
	cfg, _ := config.Load(a.opts.Lookup)
	text, err := recipe.ReadRegularFile(filepath.Join(cfg.Dir, "config.yaml"), recipe.DefaultMaxSize)
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			slog.Debug("acp: config.yaml not read for slash_commands", "err", err)
		}
		return nil
	}
	var doc struct {
		SlashCommands []slashMapping `yaml:"slash_commands"`
	}
	if err := yaml.Unmarshal(text, &doc); err != nil {
		slog.Debug("acp: slash_commands not read", "err", err)
		return nil
	}
	var out []slashMapping
	for _, m := range doc.SlashCommands {
		if strings.TrimSpace(m.Command) != "" && m.RecipePath != "" {
			out = append(out, m)
		}
	}
	return out
}
