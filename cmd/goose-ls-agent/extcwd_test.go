// A stdio extension's cwd (goose 1.39+): its variables substituted from the extension's envs, relative to
// the workspace, and never outside it.
package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
)

func TestStdioExtensionRunsInItsCwd(t *testing.T) {
	bin, server := binaries(t)
	root := t.TempDir()
	work := filepath.Join(root, "work")
	if err := os.MkdirAll(filepath.Join(work, "servers", "inner"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(root, "outside"), 0o755)
	recipe := filepath.Join(work, "cwd.yaml")
	os.WriteFile(recipe, []byte(`version: 1.0.0
title: cwd
description: extensions in their folders
prompt: where are you?
extensions:
  - type: stdio
    name: here
    cmd: `+server+`
    args: []
    envs: {PLACE: inner}
    cwd: servers/${ PLACE }
  - type: stdio
    name: away
    cmd: `+server+`
    args: []
    cwd: ../outside
`), 0o644)
	srv := wiretest.OpenAI(wiretest.Replies(
		wiretest.Reply{Calls: []wiretest.Call{c("here__pwd", `{}`)}},
		wiretest.Reply{Text: "Done."},
	))
	defer srv.Close()
	r := runIn(t, bin, srv, root, work, nil, recipe)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	want, _ := filepath.EvalSymlinks(filepath.Join(work, "servers", "inner"))
	if got := toolMessages(srv.Requests()[1]); len(got) != 1 || got[0] != want {
		t.Errorf("here__pwd %q, want %s", got, want)
	}
	if !strings.Contains(r.stderr, "extension away: cwd '../outside' is outside the workspace; running without it") {
		t.Errorf("no notice for the extension outside the workspace:\n%s", r.stderr)
	}
	for _, tool := range srv.Requests()[0]["tools"].([]any) {
		if name := tool.(map[string]any)["function"].(map[string]any)["name"].(string); strings.HasPrefix(name, "away__") {
			t.Errorf("the extension outside the workspace was started: %s offered", name)
		}
	}
}
