//go:build linux

// A FIFO named NAME.yaml in a recipe folder is skipped without blocking, by resolution and by listing.

package library

import (
	"path/filepath"
	"syscall"
	"testing"
)

func TestFIFOIsSkipped(t *testing.T) {
	env, _ := testEnv(t)
	// ~/.agents/recipes sorts first: a FIFO there would hang a plain open
	fifo := filepath.Join(env.Home, ".agents/recipes/review.yaml")
	mkdir(t, filepath.Dir(fifo))
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(env.Cwd, ".goose/recipes/review.yaml")
	writeFile(t, real, "title: project\ndescription: d\nprompt: p\n")
	rs := Resolver{Env: env}
	res, err := rs.Resolve("review")
	if err != nil || res.Path != real {
		t.Fatalf("Resolve = %+v, %v; want %s", res, err, real)
	}
	entries := rs.List()
	if len(entries) != 1 || entries[0].Path != real {
		t.Errorf("List = %+v, want only %s", entries, real)
	}
}

func TestFIFOAsRecipeFolder(t *testing.T) {
	env, tmp := testEnv(t)
	fifo := filepath.Join(tmp, "not-a-folder")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	env.RecipePath, env.HasRecipePath = fifo, true
	writeFile(t, filepath.Join(env.Cwd, "r.yaml"), "title: R\ndescription: d\nprompt: p\n")
	if got := (Resolver{Env: env}).List(); len(got) != 1 || got[0].Name != "r" {
		t.Errorf("List = %+v", got)
	}
	if _, err := (Resolver{Env: env}).Resolve("missing"); err == nil {
		t.Error("resolved a missing recipe")
	}
}
