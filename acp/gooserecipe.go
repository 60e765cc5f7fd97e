// goose's recipe sessions (its acp/server/new_session.rs and recipe/mod.rs): session/new with
// _meta.recipeDeeplink or _meta.recipeId, the recipe validated, its parameters asked for with goose's
// _goose/unstable/session/recipe/request-params when the client opted in, the rendered recipe kept
// with the session and returned in the response's _meta. Error texts and codes are goose's.

package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/goose-ls/goose-ls/agent/config"
	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/provider/configure"
	"github.com/goose-ls/goose-ls/recipe"
	"github.com/goose-ls/goose-ls/recipe/library"
	"github.com/goose-ls/goose-ls/recipe/render"
)

// methodRecipeParams is goose's agent→client request for a recipe's parameter values.
const methodRecipeParams = "_goose/unstable/session/recipe/request-params"

// sessionRecipe is the recipe a session/new names, loaded and validated.
type sessionRecipe struct {
	recipe *library.Recipe // as loaded, not rendered
	file   *recipe.File    // goose's YAML of it, checked
	dir    string          // the folder its relative paths resolve from
}

// renderedRecipe is a session's recipe after its parameters got values.
type renderedRecipe struct {
	recipe *library.Recipe
	values map[string]string // the client's answer (nil when it was not asked)
}

// metaString is goose's meta_string: absent or null is none, anything but a string is refused.
func metaString(meta map[string]any, key string) (string, bool, error) {
	v, ok := meta[key]
	if !ok || v == nil {
		return "", false, nil
	}
	s, ok := v.(string)
	if !ok {
		return "", false, sdk.NewInvalidParams(key + " must be a string")
	}
	return s, true, nil
}

// wantsRecipeParams is clientCapabilities._meta.goose.recipeParameterRequests.
func wantsRecipeParams(caps sdk.ClientCapabilities) bool {
	goose, _ := caps.Meta["goose"].(map[string]any)
	on, _ := goose["recipeParameterRequests"].(bool)
	return on
}

// library is goose's recipe library as seen from this process (goose lists it from its own folder).
func (a *Agent) library() (library.Resolver, string) {
	cfg, _ := config.Load(a.opts.Lookup) // an unreadable config.yaml still has its folder
	return library.Resolver{Env: library.OSEnv(a.opts.Lookup, cfg.Dir)}, filepath.Join(cfg.Dir, "recipes")
}

// sessionRecipe resolves _meta.recipeDeeplink (which wins) or _meta.recipeId; nil when neither is set.
func (a *Agent) sessionRecipe(meta map[string]any) (*sessionRecipe, error) {
	if meta["recipeDeeplink"] == nil && meta["recipeId"] == nil {
		return nil, nil // (the library is read only for a recipe session)
	}
	lib, libraryDir := a.library()
	var r *library.Recipe
	var dir, path string
	if link, ok, err := metaString(meta, "recipeDeeplink"); err != nil {
		return nil, err
	} else if ok {
		if r, err = library.DecodeConfig(link); err != nil {
			return nil, sdk.NewInvalidParams("recipeDeeplink: " + err.Error())
		}
		dir, path = libraryDir, filepath.Join(libraryDir, "recipe.yaml")
	} else if id, ok, err := metaString(meta, "recipeId"); err != nil {
		return nil, err
	} else if ok {
		m, found := lib.ManifestByID(id)
		if !found {
			return nil, sdk.NewInvalidParams("recipe not found: " + id)
		}
		text, err := recipe.ReadRegularFile(m.Path, recipe.DefaultMaxSize)
		if err == nil {
			r, err = library.LoadManifestRecipe(m.Path, text)
		}
		if err != nil {
			return nil, sdk.NewInternalError("Failed to load recipe: " + err.Error())
		}
		dir, path = filepath.Dir(m.Path), m.Path
	} else {
		return nil, nil
	}
	f, err := checkRecipe(r, path, dir)
	if err != nil {
		return nil, err
	}
	return &sessionRecipe{recipe: r, file: f, dir: dir}, nil
}

// checkRecipe is goose's validate_recipe: the recipe re-serialised as YAML and validated like a file
// in dir ("recipe: " and goose's first error).
func checkRecipe(r *library.Recipe, path, dir string) (*recipe.File, error) {
	text, err := r.GooseYAML()
	if err != nil {
		return nil, sdk.NewInvalidParams("recipe: " + err.Error())
	}
	f := recipe.Check(path, []byte(text), &recipe.Options{Roots: []string{dir}})
	for _, d := range f.Diags {
		if d.Severity == recipe.SeverityError {
			return nil, sdk.NewInvalidParams("recipe: " + d.Message)
		}
	}
	return f, nil
}

// renderSessionRecipe fills the parameters as goose does: rendered with no values when the recipe has
// none or the client cannot be asked (missing values are then goose's error), else asked for with
// request-params (cancel and still-missing values are goose's errors). sessionID names the session in
// the request.
func (a *Agent) renderSessionRecipe(ctx context.Context, src *sessionRecipe, sessionID, cwd string, meta map[string]any) (*renderedRecipe, error) {
	scope, hasScope, err := metaString(meta, "recipeParameterScopeId")
	if err != nil {
		return nil, err
	}
	fsys := recipe.ConfinedFS([]string{cwd, src.dir})
	if len(src.recipe.Parameters) == 0 || !wantsRecipeParams(a.clientCaps()) {
		r, missing, err := renderWith(ctx, src, nil, fsys)
		if err != nil {
			return nil, err
		}
		if missing {
			return nil, sdk.NewInvalidParams("recipe requires parameters but the client does not support recipeParameterRequests")
		}
		return &renderedRecipe{recipe: r}, nil
	}
	dto, err := src.recipe.DTO()
	if err != nil {
		return nil, sdk.NewInvalidParams("recipe: " + err.Error())
	}
	req := map[string]any{"sessionId": sessionID, "parameters": json.RawMessage(dto.Get("parameters").JSON())}
	if hasScope {
		req["parameterScopeId"] = scope
	}
	raw, err := a.peer().CallExtension(ctx, methodRecipeParams, req)
	if err != nil {
		return nil, err // the client's own error, as goose passes it on
	}
	var answer struct {
		Action string            `json:"action"`
		Values map[string]string `json:"values"`
	}
	if err := json.Unmarshal(raw, &answer); err != nil || (answer.Action != "" && answer.Action != "submit" && answer.Action != "cancel") {
		return nil, sdk.NewInternalError(fmt.Sprintf("recipe params response: %s", strings.TrimSpace(string(raw))))
	}
	if answer.Action == "cancel" {
		return nil, sdk.NewInvalidParams(map[string]any{"reason": "recipe_params_cancelled"})
	}
	if answer.Values == nil {
		answer.Values = map[string]string{}
	}
	r, missing, err := renderWith(ctx, src, answer.Values, fsys)
	if err != nil {
		return nil, err
	}
	if missing {
		return nil, sdk.NewInvalidParams("recipe still missing required parameters")
	}
	return &renderedRecipe{recipe: r, values: answer.Values}, nil
}

// renderWith renders the recipe with values (defaults fill the rest); missing is goose's MissingParams,
// any other failure its "recipe: …" internal error.
func renderWith(ctx context.Context, src *sessionRecipe, values map[string]string, fsys recipe.FS) (*library.Recipe, bool, error) {
	vals, err := render.Values(src.file, values, fsys, nil)
	var missing *render.MissingError
	if errors.As(err, &missing) {
		return nil, true, nil
	}
	if err != nil {
		return nil, false, sdk.NewInternalError("recipe: " + err.Error())
	}
	out, err := library.Render(ctx, src.file, vals, fsys)
	if err != nil {
		return nil, false, sdk.NewInternalError("recipe: " + err.Error())
	}
	return out.Recipe, false, nil
}

// responseMeta is goose's session/new _meta for a recipe session: the rendered recipe as goose's
// serde writes it, the values the client gave, the working folder.
func (r *renderedRecipe) responseMeta(cwd string) map[string]any {
	meta := map[string]any{"recipe": json.RawMessage(r.recipe.JSON()), "workingDir": cwd}
	if r.values != nil {
		meta["userRecipeValues"] = r.values
	}
	return meta
}

// useRecipe makes the rendered recipe the session's: kept for its runs, and its settings' provider and
// model (goose: the recipe's goose_provider and goose_model win over the configuration) chosen.
func (s *acpSession) useRecipe(r *renderedRecipe, resolve providerResolver, cfg configure.Source) {
	s.recipe = []byte(r.recipe.JSON())
	run := *r.recipe
	run.Parameters = nil // rendered already: as a stored session's recipe is run (session.ResumeRecipe)
	s.recipeRun = []byte(run.JSON())
	st := r.recipe.Settings
	if st == nil || (st.GooseProvider == nil && st.GooseModel == nil) {
		return
	}
	var want provider.Settings
	if st.GooseProvider != nil {
		want.Provider = *st.GooseProvider
	}
	if st.GooseModel != nil {
		want.Model = *st.GooseModel
	}
	s.provider, s.model = want.Provider, want.Model
	if setup, err := resolve(cfg, want); err == nil {
		s.model, s.contextLimit = setup.Model, setup.ContextLimit
	}
}

// providerResolver is host.Host.Provider.
type providerResolver func(configure.Source, provider.Settings) (provider.Setup, error)
