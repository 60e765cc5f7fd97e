// Recipe invariants goose checks after parsing (prompt or instructions, retry, response schema) and the
// settings and extension checks goose-ls adds.

package recipe

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/goose-ls/goose-ls/recipe/yamltree"
)

func blank(n *Node) bool {
	if n == nil || n.IsNull() {
		return true
	}
	return n.Kind == yamltree.Scalar && strings.TrimSpace(n.Value) == ""
}

func (f *File) checkInvariants() {
	r := f.Recipe
	if blank(r.Instructions) && blank(r.Prompt) {
		rng := f.holderRange(nil)
		for _, k := range []string{"instructions", "prompt"} {
			if p := f.Tree.Pair(k); p != nil {
				rng = p.Key.R
				break
			}
		}
		f.errorf(rng, CodePromptOrInstructions, "Recipe must specify at least one of `instructions` or `prompt`.")
	}
	f.checkRetry()
	f.checkResponse()
}

func uintValue(n *Node) (uint64, bool) {
	if n == nil || n.Kind != yamltree.Scalar || n.Type != yamltree.Int {
		return 0, false
	}
	v, err := strconv.ParseUint(strings.TrimPrefix(n.Value, "+"), 0, 64)
	return v, err == nil
}

func (f *File) checkRetry() {
	retry := f.Recipe.Retry
	if retry == nil || retry.Kind != yamltree.Map {
		return
	}
	for _, c := range []struct{ key, reason string }{
		{"max_retries", "max_retries must be greater than 0"},
		{"timeout_seconds", "timeout_seconds must be greater than 0 if specified"},
		{"on_failure_timeout_seconds", "on_failure_timeout_seconds must be greater than 0 if specified"},
	} {
		if v, ok := uintValue(retry.Get(c.key)); ok && v == 0 {
			f.errorf(retry.Get(c.key).R, CodeRetryInvalid, "Invalid retry configuration: %s", c.reason)
		}
	}
}

func (f *File) checkResponse() {
	resp := f.Recipe.Response
	if resp == nil || resp.Kind != yamltree.Map {
		return
	}
	js := resp.Get("json_schema")
	if js == nil || js.IsNull() {
		return
	}
	if js.Kind != yamltree.Map {
		f.errorf(js.R, CodeResponseSchemaNotObject, "JSON schema must be an object")
		return
	}
	if len(js.Pairs) == 0 {
		f.errorf(js.R, CodeResponseSchemaEmpty, "Empty JSON schema is not allowed")
		return
	}
	f.checkResponseSchemaCompiles(resp, js)
}

func (f *File) checkSettings() {
	s := f.Recipe.Settings
	if s == nil || s.Kind != yamltree.Map {
		return
	}
	if t := s.Get("temperature"); t != nil && t.Kind == yamltree.Scalar && (t.Type == yamltree.Float || t.Type == yamltree.Int) {
		if v, err := strconv.ParseFloat(t.Value, 64); err == nil && (v < 0 || v > 2) {
			f.warnf(t.R, CodeSettingsTemperature, "temperature %s is outside 0 to 2; providers reject or clamp it", t.Value)
		}
	}
	if v, ok := uintValue(s.Get("max_turns")); ok && v == 0 {
		f.warnf(s.Get("max_turns").R, CodeSettingsMaxTurns, "max_turns 0 stops the agent before its first turn")
	}
}

var envNameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })

// deniedEnvs are the variables goose drops from an extension's `envs` (with only a log warning).
var deniedEnvs = map[string]bool{
	"PATH": true, "PATHEXT": true, "SystemDrive": true, "SystemRoot": true, "windir": true, "TEMP": true, "TMP": true,
	"TMPDIR": true, "HOME": true, "USERPROFILE": true, "APPDATA": true, "LOCALAPPDATA": true, "ComSpec": true,
	"LD_PRELOAD": true, "LD_LIBRARY_PATH": true, "LD_AUDIT": true, "LD_DEBUG": true, "LD_BIND_NOW": true,
	"LD_PROFILE": true, "DYLD_INSERT_LIBRARIES": true, "DYLD_LIBRARY_PATH": true, "DYLD_FRAMEWORK_PATH": true,
	"DYLD_FALLBACK_LIBRARY_PATH": true, "DYLD_FALLBACK_FRAMEWORK_PATH": true, "DYLD_IMAGE_SUFFIX": true,
	"DYLD_PRINT_LIBRARIES": true, "PYTHONPATH": true, "PYTHONHOME": true, "NODE_OPTIONS": true, "RUBYOPT": true,
	"PERL5LIB": true, "GODEBUG": true,
}

func (f *File) checkExtensions() {
	for _, e := range f.Recipe.Extensions {
		switch e.Type {
		case "frontend", "inline_python":
			f.add(Diagnostic{R: e.Node.Get("type").R, Severity: SeverityWarning, Code: CodeExtRemovedType, Tags: []Tag{TagDeprecated},
				Message: fmt.Sprintf("extension type `%s` was removed after goose 1.38: newer goose rejects this recipe", e.Type)})
		}
		if t := e.Node.Get("timeout"); t != nil {
			if v, ok := uintValue(t); ok && v == 0 {
				f.warnf(t.R, CodeExtTimeout, "timeout 0 makes every call to extension %s time out at once; give a positive number of seconds", e.Name)
			}
		}
		if keys := e.Node.Get("env_keys"); keys != nil && keys.Kind == yamltree.Seq {
			for _, k := range keys.Items {
				if k.Kind == yamltree.Scalar && k.Type == yamltree.Str && !envNameRE().MatchString(k.Value) {
					f.warnf(k.R, CodeExtEnvKey, "%q is not a valid environment variable name (letters, digits and _, not starting with a digit)", k.Value)
				}
			}
		}
		if envs := e.Node.Get("envs"); envs != nil && envs.Kind == yamltree.Map {
			for _, p := range envs.Pairs {
				if deniedEnvs[p.Key.Value] || strings.HasPrefix(p.Key.Value, "DYLD_") {
					f.warnf(p.Key.R, CodeExtEnvDenied, "goose drops %s from an extension's envs for safety; it will not be set", p.Key.Value)
				} else if !envNameRE().MatchString(p.Key.Value) {
					f.warnf(p.Key.R, CodeExtEnvKey, "%q is not a valid environment variable name", p.Key.Value)
				}
			}
		}
	}
}
