// Release archives, built reproducibly: both executables per platform, README and LICENSE, in a tar.gz
// (zip on Windows) whose every byte depends only on the source, the version and the Go toolchain.

package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/goose-ls/goose-ls/internal/version"
)

// Platform is a release target: the ACP registry's name for it and Go's.
type Platform struct{ Name, GOOS, GOARCH string }

// Platforms are the targets of a release, named as the ACP registry names them.
var Platforms = []Platform{
	{"darwin-aarch64", "darwin", "arm64"},
	{"darwin-x86_64", "darwin", "amd64"},
	{"linux-aarch64", "linux", "arm64"},
	{"linux-x86_64", "linux", "amd64"},
	{"windows-aarch64", "windows", "arm64"},
	{"windows-x86_64", "windows", "amd64"},
}

// Options describe one release build.
type Options struct {
	Root      string    // the checkout
	Version   string    // vX.Y.Z
	Commit    string    // the commit it is built from (stamped into the binaries)
	ModTime   time.Time // every archive entry's time: the commit's, so archives do not depend on the clock
	Out       string    // where archives and SHA256SUMS go
	Platforms []Platform
}

// Artifact is one archive written.
type Artifact struct {
	Platform Platform
	File     string // base name in Out
	SHA256   string
}

// ArchiveName is the archive's file name for p at version v (vX.Y.Z).
func ArchiveName(v string, p Platform) string {
	ext := ".tar.gz"
	if p.GOOS == "windows" {
		ext = ".zip"
	}
	return "goose-ls-" + strings.TrimPrefix(v, "v") + "-" + p.Name + ext
}

// exe is an executable's file name on p.
func exe(name string, p Platform) string {
	if p.GOOS == "windows" {
		return name + ".exe"
	}
	return name
}

// BuildArchives builds and archives every platform of o, then writes SHA256SUMS.
func BuildArchives(ctx context.Context, o Options) ([]Artifact, error) {
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return nil, err
	}
	var arts []Artifact
	for _, p := range o.Platforms {
		a, err := buildPlatform(ctx, o, p)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p.Name, err)
		}
		arts = append(arts, a)
	}
	var sums strings.Builder
	for _, a := range arts {
		fmt.Fprintf(&sums, "%s  %s\n", a.SHA256, a.File)
	}
	return arts, os.WriteFile(filepath.Join(o.Out, "SHA256SUMS"), []byte(sums.String()), 0o644)
}

// buildPlatform builds goose-ls and goose-ls-agent for p and archives them with README.md and LICENSE.
func buildPlatform(ctx context.Context, o Options, p Platform) (Artifact, error) {
	tmp, err := os.MkdirTemp("", "goose-ls-release-")
	if err != nil {
		return Artifact{}, err
	}
	defer os.RemoveAll(tmp)
	files := map[string][]byte{}
	for _, name := range []string{"goose-ls", "goose-ls-agent"} {
		out := filepath.Join(tmp, exe(name, p))
		if err := goBuild(ctx, o, p, "./cmd/"+name, out); err != nil {
			return Artifact{}, err
		}
		if files[exe(name, p)], err = os.ReadFile(out); err != nil {
			return Artifact{}, err
		}
	}
	for _, doc := range []string{"README.md", "LICENSE"} {
		if files[doc], err = os.ReadFile(filepath.Join(o.Root, doc)); err != nil {
			return Artifact{}, err
		}
	}
	var archive []byte
	if p.GOOS == "windows" {
		archive, err = zipFiles(files, o.ModTime)
	} else {
		archive, err = tarGzFiles(files, o.ModTime)
	}
	if err != nil {
		return Artifact{}, err
	}
	name := ArchiveName(o.Version, p)
	if err := os.WriteFile(filepath.Join(o.Out, name), archive, 0o644); err != nil {
		return Artifact{}, err
	}
	sum := sha256.Sum256(archive)
	return Artifact{Platform: p, File: name, SHA256: hex.EncodeToString(sum[:])}, nil
}

// goBuild builds pkg for p as released: static, no local paths (-trimpath), no build id, no VCS stamp
// (the version and commit are stamped instead, so a source archive builds the same bytes).
func goBuild(ctx context.Context, o Options, p Platform, pkg, out string) error {
	ldflags := fmt.Sprintf("-s -w -buildid= -X %s/internal/version.stampedVersion=%s -X %s/internal/version.stampedCommit=%s",
		version.Module, o.Version, version.Module, o.Commit)
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-buildvcs=false", "-ldflags", ldflags, "-o", out, pkg)
	cmd.Dir = o.Root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+p.GOOS, "GOARCH="+p.GOARCH, "GOFLAGS=")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s: %v\n%s", pkg, err, msg)
	}
	return nil
}

// sortedNames are the archive's entries in a fixed order.
func sortedNames(files map[string][]byte) []string {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// mode is an entry's permission bits: executables 0755, documents 0644.
func mode(name string) int64 {
	if strings.HasPrefix(name, "goose-ls") {
		return 0o755
	}
	return 0o644
}

func tarGzFiles(files map[string][]byte, mtime time.Time) ([]byte, error) {
	var buf bytes.Buffer
	gz, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	gz.ModTime = mtime // the header names no file and carries the commit's time, not the clock's
	tw := tar.NewWriter(gz)
	for _, n := range sortedNames(files) {
		hdr := &tar.Header{Name: n, Mode: mode(n), Size: int64(len(files[n])), ModTime: mtime, Typeflag: tar.TypeReg,
			Uname: "root", Gname: "root", Format: tar.FormatPAX}
		if err := tw.WriteHeader(hdr); err != nil {
			return nil, err
		}
		if _, err := tw.Write(files[n]); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := gz.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func zipFiles(files map[string][]byte, mtime time.Time) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, n := range sortedNames(files) {
		hdr := &zip.FileHeader{Name: n, Method: zip.Deflate, Modified: mtime.UTC()}
		hdr.SetMode(os.FileMode(mode(n)))
		w, err := zw.CreateHeader(hdr)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(files[n]); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
