// The editor versions the Neovim and Emacs tests run in: the host's (Debian bookworm: Neovim 0.7.2,
// Emacs 28) and those inside the Debian root filesystems of `make e2e-rootfs` (trixie: Neovim 0.10,
// Emacs 30; forky: Neovim 0.12), entered with unshare --mount --pid --fork chroot.
package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// editor is one editor version: a program on the host (rootfs "") or inside a root filesystem.
type editor struct {
	name    string // test name, e.g. "nvim-0.12"
	program string // "nvim" or "emacs"
	suite   string // Debian suite of the root filesystem; "" runs the host's program
	version string // what the editor must report, e.g. "0.12." (checked by each script's first line)
	// registry: Neovim 0.11+ (vim.lsp.config, vim.lsp.enable, lsp/*.lua on the runtimepath)
	registry bool
}

var (
	neovims = []editor{
		{name: "nvim-0.7", program: "nvim", version: "0.7."},
		{name: "nvim-0.10", program: "nvim", suite: "trixie", version: "0.10."},
		{name: "nvim-0.12", program: "nvim", suite: "forky", version: "0.12.", registry: true},
	}
	emacsen = []editor{
		{name: "emacs-28", program: "emacs", version: "28."},
		{name: "emacs-30", program: "emacs", suite: "trixie", version: "30."},
	}
)

// rootfsBase is where `make e2e-rootfs` puts the root filesystems (its E2E_ROOTFS).
func rootfsBase() string {
	if d := os.Getenv("GOOSE_E2E_ROOTFS"); d != "" {
		return d
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(cache, "goose-ls-e2e")
}

// rootfs is the editor's root filesystem ("" for the host).
func (e editor) rootfs() string {
	if e.suite == "" {
		return ""
	}
	return filepath.Join(rootfsBase(), e.suite)
}

// require fails (CI) or skips (locally) when the editor is not there.
func (e editor) require(t *testing.T) {
	t.Helper()
	if e.suite == "" {
		requireTool(t, e.program)
		return
	}
	if _, err := os.Stat(filepath.Join(e.rootfs(), "usr/bin", e.program)); err != nil {
		missing(t, "the "+e.suite+" root filesystem with "+e.program+" at "+e.rootfs()+" (run `make e2e-rootfs`)")
	}
	if os.Geteuid() != 0 {
		missing(t, "root (unshare and chroot into "+e.rootfs()+")")
	}
	requireTool(t, "unshare")
}

// enterRootfs runs as a shell script under unshare: it mounts /dev, a new /proc, the temporary folder
// (at the same path) and the folder holding goose-ls (as /usr/local/bin) inside the root filesystem,
// then runs the command there in the working folder. The mounts die with the namespace.
const enterRootfs = `set -eu
root=$1 bindir=$2 tmp=$3 dir=$4; shift 4
mount --rbind /dev "$root/dev"
mount -t proc proc "$root/proc"
mkdir -p "$root$tmp"
mount --rbind "$tmp" "$root$tmp"
mount --bind "$bindir" "$root/usr/local/bin"
exec chroot "$root" /bin/sh -c 'cd "$1" && shift && exec "$@"' sh "$dir" "$@"`

// run runs the editor with args in dir, env added (inside a root filesystem: env alone, plus PATH),
// goose-ls from bin first on PATH; it fails unless the editor ends well and prints ok, and returns
// the output.
func (e editor) run(t *testing.T, timeout time.Duration, bin, dir string, env []string, ok string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var cmd *exec.Cmd
	if e.suite == "" {
		cmd = exec.CommandContext(ctx, e.program, args...)
		cmd.Dir = dir
		cmd.Env = append(append(os.Environ(), env...), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	} else {
		tmp, err := filepath.EvalSymlinks(os.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		wrapped := append([]string{"--mount", "--pid", "--fork", "--kill-child", "sh", "-c", enterRootfs, "sh",
			e.rootfs(), filepath.Dir(bin), tmp, dir, e.program}, args...)
		cmd = exec.CommandContext(ctx, "unshare", wrapped...)
		// (sbin for unshare's shell to find mount and chroot)
		cmd.Env = append([]string{"PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "LANG=C.UTF-8", "TERM=dumb"}, env...)
	}
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), ok) {
		t.Fatalf("%s failed: %v\n%s", e.name, err, out)
	}
	if !strings.Contains(string(out), "VERSION "+e.version) {
		t.Fatalf("%s: the script did not report version %s*:\n%s", e.name, e.version, out)
	}
	return string(out)
}
