// Command release builds a goose-ls release (make release VERSION=vX.Y.Z): the platform archives and
// SHA256SUMS in dist/, and the ACP registry entry in packaging/acp-registry/goose-ls/agent.json.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

var semver = regexp.MustCompile(`^v[0-9]+\.[0-9]+\.[0-9]+$`)

func main() {
	ver := flag.String("version", "", "the release version, vX.Y.Z")
	out := flag.String("out", "dist", "where the archives and SHA256SUMS go")
	only := flag.String("platforms", "", "comma-separated platforms (default: all)")
	base := flag.String("download-base", DownloadBase, "where the archives will be published")
	flag.Parse()
	if err := run(*ver, *out, *only, *base); err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(1)
	}
}

func run(ver, out, only, base string) error {
	if !semver.MatchString(ver) {
		return fmt.Errorf("VERSION must be vX.Y.Z, got %q", ver)
	}
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	commit, modTime, err := headCommit(root)
	if err != nil {
		return err
	}
	plats, err := pick(only)
	if err != nil {
		return err
	}
	arts, err := BuildArchives(context.Background(), Options{Root: root, Version: ver, Commit: commit, ModTime: modTime, Out: out, Platforms: plats})
	if err != nil {
		return err
	}
	for _, a := range arts {
		fmt.Printf("%s  %s\n", a.SHA256, filepath.Join(out, a.File))
	}
	entry, err := RegistryEntry(ver, base)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(root, "packaging", "acp-registry", "goose-ls", "agent.json"), entry, 0o644)
}

// headCommit is the checkout's commit (12 hex digits, "-dirty" with uncommitted changes) and its time.
func headCommit(root string) (string, time.Time, error) {
	git := func(args ...string) (string, error) {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		b, err := cmd.Output()
		return strings.TrimSpace(string(b)), err
	}
	rev, err := git("rev-parse", "--short=12", "HEAD")
	if err != nil {
		return "", time.Time{}, fmt.Errorf("git rev-parse: %w", err)
	}
	ts, err := git("log", "-1", "--format=%ct", "HEAD")
	if err != nil {
		return "", time.Time{}, err
	}
	secs, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return "", time.Time{}, err
	}
	if status, _ := git("status", "--porcelain", "--untracked-files=no"); status != "" {
		rev += "-dirty"
	}
	return rev, time.Unix(secs, 0).UTC(), nil
}

func pick(only string) ([]Platform, error) {
	if only == "" {
		return Platforms, nil
	}
	var out []Platform
	for _, name := range strings.Split(only, ",") {
		found := false
		for _, p := range Platforms {
			if p.Name == name {
				out, found = append(out, p), true
			}
		}
		if !found {
			return nil, fmt.Errorf("unknown platform %q", name)
		}
	}
	return out, nil
}
