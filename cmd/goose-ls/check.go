// `goose-ls check`: validate files and folders, report as text, JSON or SARIF.

package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/goose-ls/goose-ls/internal/cli"
	"github.com/goose-ls/goose-ls/recipe"
	"github.com/goose-ls/goose-ls/recipe/library"
	"github.com/goose-ls/goose-ls/recipe/schema"
)

func runSchema(stdout io.Writer) int {
	_, err := stdout.Write(schema.JSON())
	if err != nil {
		return 2
	}
	return 0
}

// checkedFile is one file's result for reporting.
type checkedFile struct {
	Path string
	File *recipe.File
}

// checkTarget is a recipe to check: its text (read once) and the folder its check may read files from.
type checkTarget struct {
	path string
	abs  string // path made absolute, when the walk knows it already ("": filepath.Abs(path))
	root string // the folder given, or the file's folder
	data []byte
}

// rootFlags collects repeated --root DIR flags.
type rootFlags []string

func (r *rootFlags) String() string { return strings.Join(*r, ",") }

func (r *rootFlags) Set(dir string) error {
	st, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return fmt.Errorf("%s is not a folder", dir)
	}
	*r = append(*r, dir)
	return nil
}

func runCheck(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("check", flag.ContinueOnError)
	fl.SetOutput(stderr)
	format := fl.String("format", "text", "output format: text, json or sarif")
	var roots rootFlags
	desktop := fl.Bool("desktop", false, "also report what goose Desktop's recipe form refuses (hints)")
	fl.Var(&roots, "root", "a folder recipes may also read sub-recipes from (repeatable), e.g. a GOOSE_RECIPE_PATH folder")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if fl.NArg() == 0 {
		fmt.Fprintln(stderr, "goose-ls check: no files or folders given")
		return 2
	}
	switch *format {
	case "text", "json", "sarif":
	default:
		fmt.Fprintf(stderr, "goose-ls check: unknown format %q (want text, json or sarif)\n", *format)
		return 2
	}
	go schema.Load() // compile the schema while the files are read and parsed (the schema stage waits for it)
	results, ioErr := collectAndCheck(fl.Args(), stderr, roots, *desktop)
	out := bufio.NewWriterSize(stdout, 64<<10) // one write per 64 KiB, not one per diagnostic
	var err error
	switch *format {
	case "json":
		err = writeJSON(out, results)
	case "sarif":
		err = writeSARIF(out, results)
	default:
		err = writeText(out, results)
	}
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		fmt.Fprintln(stderr, "goose-ls check:", err)
		return 2
	}
	if ioErr {
		return 2
	}
	for _, r := range results {
		if r.File.HasErrors() {
			return 1
		}
	}
	return 0
}

// readLimit reads one byte past the check's size limit, so the check reports a larger file as too large.
const readLimit = recipe.DefaultMaxSize + 1

// walkTargets expands folders into the recipe files below them (explicit files are always checked) and
// hands each to emit as soon as it is read, in walk order; it reports whether something could not be
// read. Files found in a folder are read inside it: symlinks that lead out of it and files that are not
// regular files are skipped with a note on stderr; symlinked folders are not followed.
func walkTargets(args []string, stderr io.Writer, opened *recipe.OpenRoots, emit func(checkTarget)) bool {
	failed := false
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil && errors.Is(err, fs.ErrNotExist) && library.IsName(a) { // a recipe by name, as goose finds it
			res, rerr := cli.NewResolver().Resolve(a)
			if rerr == nil {
				emit(checkTarget{path: res.Path, root: res.Dir, data: res.Text})
				continue
			}
			err = rerr
		}
		if err != nil {
			fmt.Fprintf(stderr, "goose-ls check: %v\n", err)
			failed = true
			continue
		}
		if !st.IsDir() {
			data, err := recipe.ReadRegularFile(a, readLimit)
			if err != nil {
				fmt.Fprintf(stderr, "goose-ls check: %v\n", err)
				failed = true
				continue
			}
			emit(checkTarget{path: a, root: filepath.Dir(a), data: data})
			continue
		}
		failed = collectDir(a, stderr, opened, emit) || failed
	}
	return failed
}

// skippedFolder says whether the walk below a checked folder skips a folder of this name (tools' and
// dependencies' folders).
func skippedFolder(name string) bool {
	switch name {
	case ".git", "node_modules", "vendor", ".venv":
		return true
	}
	return false
}

// recipeExtension says whether a file found in a folder may be a recipe by its name.
func recipeExtension(p string) bool {
	ext := strings.ToLower(filepath.Ext(p))
	return ext == ".yaml" || ext == ".yml" || ext == ".json"
}

// collectDir finds the recipes below dir, reading each through an os.Root at dir (kept open in opened for
// the whole run), and emits each.
func collectDir(dir string, stderr io.Writer, opened *recipe.OpenRoots, emit func(checkTarget)) bool {
	failed := false
	absDir, err := filepath.Abs(dir) // once, not once per file (filepath.Abs of a relative path asks the OS)
	if err != nil {
		absDir = dir
	}
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			fmt.Fprintf(stderr, "goose-ls check: %v\n", err)
			failed = true
			return nil
		}
		if d.IsDir() {
			if p != dir && skippedFolder(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !recipeExtension(p) {
			if d.Type()&fs.ModeSymlink != 0 && symlinkedDirOutside(dir, p) {
				fmt.Fprintf(stderr, "goose-ls check: skipped %s: symbolic link to a folder outside %s (not followed)\n", p, dir)
			}
			return nil
		}
		abs := p
		if rel, rerr := filepath.Rel(dir, p); rerr == nil {
			abs = filepath.Join(absDir, rel)
		}
		data, err := opened.ReadLimitedIn(absDir, abs, readLimit)
		switch {
		case errors.Is(err, recipe.ErrOutsideRoots):
			fmt.Fprintf(stderr, "goose-ls check: skipped %s: symbolic link leads outside %s\n", p, dir)
		case errors.Is(err, recipe.ErrNotRegular), errors.Is(err, recipe.ErrSymlinkLoop), errors.Is(err, fs.ErrNotExist):
			fmt.Fprintf(stderr, "goose-ls check: skipped %s: %s\n", p, recipe.ReadError(err))
		case err != nil:
			fmt.Fprintf(stderr, "goose-ls check: %s: %s\n", p, recipe.ReadError(err))
			failed = true
		case recipe.LooksLikeRecipe(p, data):
			emit(checkTarget{path: p, abs: abs, root: absDir, data: data})
		}
		return nil
	})
	if err != nil {
		failed = true
	}
	return failed
}

// symlinkedDirOutside reports whether the symlink p leads to a folder outside dir (only to say so: the
// walk never follows symlinked folders).
func symlinkedDirOutside(dir, p string) bool {
	st, err := os.Stat(p)
	if err != nil || !st.IsDir() {
		return false
	}
	target, err := filepath.EvalSymlinks(p)
	if err != nil {
		return true
	}
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return true
	}
	rel, err := filepath.Rel(realDir, target)
	return err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// collectAndCheck checks the targets of args while they are still being found (the walk reads files on
// this goroutine, the checks run on GOMAXPROCS others) and returns the results sorted by path. Recipes
// that name sub-recipes are checked last, largest first: the checks before them leave each file's
// sub-recipe summary in the process-wide cache (Options.ShareChildInfo), so a parent reads its children
// without parsing them again, and the largest checks do not end the run on one core. The order of
// the checks changes no result (shareChildInfo shares only what the parent would compute itself).
func collectAndCheck(args []string, stderr io.Writer, extraRoots []string, desktop bool) ([]checkedFile, bool) {
	leaves := make(chan checkTarget, 64)
	parents := make(chan checkTarget, 64)
	// the folders the walk and the checks read from stay open until every check is done (one short run)
	opened := recipe.NewOpenRoots()
	defer opened.Close()
	var mu sync.Mutex
	var results []checkedFile
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, queue := range []chan checkTarget{leaves, parents} {
				for t := range queue {
					r := checkOne(t, extraRoots, desktop, opened)
					mu.Lock()
					results = append(results, r)
					mu.Unlock()
				}
			}
		}()
	}
	var deferred []checkTarget
	deferredBytes := 0
	failed := walkTargets(args, stderr, opened, func(t checkTarget) {
		// parents wait in memory for the walk's end, up to a bound; past it they are checked at once
		if namesSubRecipes(t.data) && deferredBytes+len(t.data) <= maxDeferredBytes {
			deferred = append(deferred, t)
			deferredBytes += len(t.data)
			return
		}
		leaves <- t
	})
	close(leaves)
	sort.SliceStable(deferred, func(i, j int) bool { return len(deferred[i].data) > len(deferred[j].data) })
	for _, t := range deferred {
		parents <- t
	}
	close(parents)
	wg.Wait()
	sort.SliceStable(results, func(i, j int) bool { return results[i].Path < results[j].Path })
	return results, failed
}

// maxDeferredBytes bounds the text of the parents held back until the walk ends (a folder of hostile
// files must not be held whole).
const maxDeferredBytes = 16 << 20

// namesSubRecipes reports whether a recipe's text may name sub-recipes (a cheap over-approximation: the
// key anywhere in the text).
func namesSubRecipes(data []byte) bool { return bytes.Contains(data, []byte("sub_recipes")) }

// checkOne checks one target; it may read files inside its root and the --root folders.
func checkOne(t checkTarget, extraRoots []string, desktop bool, opened *recipe.OpenRoots) checkedFile {
	abs := t.abs
	if abs == "" {
		var aerr error
		if abs, aerr = filepath.Abs(t.path); aerr != nil {
			abs = t.path
		}
	}
	roots := append([]string{t.root}, extraRoots...)
	f := recipe.Check(abs, t.data, &recipe.Options{Roots: roots, DesktopHints: desktop, OpenRoots: opened, ShareChildInfo: true})
	// the reports need the diagnostics and the line index only: the tree, template and model of every
	// file checked are left to the collector instead of being held until the last file is done
	return checkedFile{Path: t.path, File: &recipe.File{Path: t.path, Text: f.Text, Lines: f.Lines, Diags: f.Diags}}
}
