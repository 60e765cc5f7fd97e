// The order a built binary initialises its packages in, for tests of early initialisers.

package testbin

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// InitOrder runs bin with args and GODEBUG=inittrace=1 in a fresh folder and returns the packages in the
// order they initialised (those with an init line), and what the command printed on stdout. The exit
// code is the command's business, not the caller's.
func InitOrder(t *testing.T, bin string, args ...string) (pkgs []string, stdout string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	cmd.Dir = t.TempDir()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	_ = cmd.Run()
	for _, line := range strings.Split(errb.String(), "\n") {
		if f := strings.Fields(line); len(f) > 2 && f[0] == "init" && strings.HasPrefix(f[2], "@") {
			pkgs = append(pkgs, f[1])
		}
	}
	return pkgs, out.String()
}
