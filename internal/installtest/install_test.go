// The README's install line, run as a user runs it: the checkout served as a module version from a
// local file proxy (zipped as a proxy serves it), installed into a fresh GOPATH, then used.
package installtest

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"

	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
	"github.com/goose-ls/goose-ls/internal/version"
)

// testVersion is the module version the proxy serves (its only one, so @latest resolves to it).
const testVersion = "v0.0.1"

func TestREADMEInstallLineInstallsTheProduct(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the whole product from a module proxy")
	}
	root := repoRoot(t)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), version.InstallCommand) {
		t.Fatalf("README.md does not give the install line %q", version.InstallCommand)
	}

	proxy := t.TempDir()
	serveCheckout(t, root, proxy)
	gopath := t.TempDir()
	gobin := filepath.Join(gopath, "bin")
	modcache := goEnv(t, "GOMODCACHE")
	args := strings.Fields(version.InstallCommand)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	install := exec.CommandContext(ctx, args[0], args[1:]...)
	install.Dir = t.TempDir() // outside any module, as a user types it
	// our module from the test's proxy; its dependencies from this machine's module cache, which is laid
	// out as a proxy (the test never reaches the network); the build cache is shared only for speed
	install.Env = append(os.Environ(),
		"GOPATH="+gopath, "GOBIN=", "GOMODCACHE="+filepath.Join(gopath, "pkg", "mod"),
		"GOPROXY=file://"+filepath.ToSlash(proxy)+",file://"+filepath.ToSlash(filepath.Join(modcache, "cache", "download")),
		"GOSUMDB=off", "GOFLAGS=-modcacherw", "GONOSUMDB=", "GOPRIVATE=", "GOTOOLCHAIN=local", "CGO_ENABLED=0")
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", version.InstallCommand, err, out)
	}
	entries, err := os.ReadDir(gobin)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "goose-ls goose-ls-agent" {
		t.Fatalf("installed %v, want exactly goose-ls and goose-ls-agent", names)
	}
	gooseLS := filepath.Join(gobin, "goose-ls")

	out, err := exec.Command(gooseLS, "version").Output()
	if err != nil || !strings.HasPrefix(string(out), "goose-ls "+testVersion+" ") {
		t.Fatalf("goose-ls version = %q, %v", out, err)
	}

	check := exec.Command(gooseLS, "check", "--format", "json", filepath.Join(root, "examples"))
	out, err = check.Output()
	if err != nil {
		t.Fatalf("goose-ls check examples: %v\n%s", err, out)
	}
	var results struct {
		Files []struct{ Path string } `json:"files"`
	}
	if err := json.Unmarshal(out, &results); err != nil || len(results.Files) == 0 {
		t.Fatalf("check --format json gave %d files (%v):\n%s", len(results.Files), err, out)
	}

	srv := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Text: "Installed and answering."}))
	defer srv.Close()
	home := t.TempDir()
	work := filepath.Join(home, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	run := exec.Command(gooseLS, "run", "--prompt", "say hello", "--no-session")
	run.Dir = work
	run.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "GOOSE_PATH_ROOT=" + filepath.Join(home, "goose"),
		"GOOSE_PROVIDER=openai", "GOOSE_MODEL=gpt-4o", "OPENAI_API_KEY=sk-install-test", "OPENAI_HOST=" + srv.URL}
	var stdout, stderr bytes.Buffer
	run.Stdout, run.Stderr = &stdout, &stderr
	if err := run.Run(); err != nil {
		t.Fatalf("goose-ls run: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stdout.String(), "Installed and answering.") {
		t.Errorf("run printed %q (stderr %q)", stdout.String(), stderr.String())
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("the scripted provider saw %d requests, want 1", n)
	}
}

// serveCheckout writes a file proxy at dir serving the module's tracked files (as they are in the work
// tree) as testVersion: list, .info, .mod and .zip, the layout GOPROXY=file:// reads.
func serveCheckout(t *testing.T, root, dir string) {
	t.Helper()
	ls := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	ls.Dir = root
	listed, err := ls.Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	var files []modzip.File
	for _, rel := range strings.Split(strings.TrimRight(string(listed), "\x00"), "\x00") {
		if rel == "" {
			continue
		}
		if st, err := os.Lstat(filepath.Join(root, rel)); err != nil || !st.Mode().IsRegular() {
			continue // deleted in the work tree, or a symlink (a module zip holds neither)
		}
		files = append(files, checkoutFile{root: root, rel: rel})
	}
	at := filepath.Join(dir, filepath.FromSlash(version.Module), "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := modzip.Create(&buf, module.Version{Path: version.Module, Version: testVersion}, files); err != nil {
		t.Fatalf("zip the module: %v", err)
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, data []byte) {
		if err := os.WriteFile(filepath.Join(at, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("list", []byte(testVersion+"\n"))
	write(testVersion+".info", []byte(`{"Version":"`+testVersion+`","Time":"2026-11-28T00:00:00Z"}`))
	write(testVersion+".mod", gomod)
	write(testVersion+".zip", buf.Bytes())
	if zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len())); err != nil || len(zr.File) == 0 {
		t.Fatalf("the module zip does not read back: %v", err)
	}
}

// checkoutFile is a tracked file of the checkout, as modzip.Create takes it.
type checkoutFile struct{ root, rel string }

func (f checkoutFile) Path() string                 { return f.rel }
func (f checkoutFile) Lstat() (fs.FileInfo, error)  { return os.Lstat(filepath.Join(f.root, f.rel)) }
func (f checkoutFile) Open() (io.ReadCloser, error) { return os.Open(filepath.Join(f.root, f.rel)) }

func repoRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

func goEnv(t *testing.T, key string) string {
	t.Helper()
	out, err := exec.Command("go", "env", key).Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}
