// `goose-ls check`: validate files and folders, report as text, JSON or SARIF.

package main

import (
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

	"github.com/goose-ls/goose-ls/recipe"
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

func runCheck(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("check", flag.ContinueOnError)
	fl.SetOutput(stderr)
	format := fl.String("format", "text", "output format: text, json or sarif")
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
	paths, ioErr := collect(fl.Args(), stderr)
	results := checkAll(paths, stderr, &ioErr)
	var err error
	switch *format {
	case "json":
		err = writeJSON(stdout, results)
	case "sarif":
		err = writeSARIF(stdout, results)
	default:
		err = writeText(stdout, results)
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

// collect expands folders into the recipe files below them; explicit files are always checked.
func collect(args []string, stderr io.Writer) ([]string, bool) {
	var out []string
	failed := false
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			fmt.Fprintf(stderr, "goose-ls check: %v\n", err)
			failed = true
			continue
		}
		if !st.IsDir() {
			out = append(out, a)
			continue
		}
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				fmt.Fprintf(stderr, "goose-ls check: %v\n", err)
				failed = true
				return nil
			}
			if d.IsDir() {
				switch d.Name() {
				case ".git", "node_modules", "vendor", ".venv":
					if p != a {
						return filepath.SkipDir
					}
				}
				return nil
			}
			ext := strings.ToLower(filepath.Ext(p))
			if ext != ".yaml" && ext != ".yml" && ext != ".json" {
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil {
				fmt.Fprintf(stderr, "goose-ls check: %v\n", err)
				failed = true
				return nil
			}
			if recipe.LooksLikeRecipe(p, data) {
				out = append(out, p)
			}
			return nil
		})
		if err != nil {
			failed = true
		}
	}
	sort.Strings(out)
	return out, failed
}

// checkAll checks files in parallel, keeping the input order.
func checkAll(paths []string, stderr io.Writer, ioErr *bool) []checkedFile {
	results := make([]checkedFile, len(paths))
	var mu sync.Mutex
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				p := paths[i]
				data, err := os.ReadFile(p)
				if err != nil {
					mu.Lock()
					fmt.Fprintf(stderr, "goose-ls check: %v\n", err)
					*ioErr = true
					mu.Unlock()
				}
				abs, aerr := filepath.Abs(p)
				if aerr != nil {
					abs = p
				}
				f := recipe.Check(abs, data, nil)
				f.Path = p
				results[i] = checkedFile{Path: p, File: f}
			}
		}()
	}
	for i := range paths {
		next <- i
	}
	close(next)
	wg.Wait()
	return results
}
