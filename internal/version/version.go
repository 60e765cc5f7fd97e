// Package version names this build of goose-ls and the goose release whose behaviour it reproduces.
package version

import (
	"fmt"
	"os"
	"runtime/debug"
	"sync"
)

// Goose is the goose release goose-ls agrees with: its recipe rules, template engine, session store,
// runtime and providers. Where goose-ls still behaves as an older goose, README's "goose versions" says so.
const Goose = "1.54.0"

// Module is the module path users install from.
const Module = "github.com/goose-ls/goose-ls"

// InstallCommand installs every goose-ls executable from one module version.
const InstallCommand = "go install " + Module + "/cmd/...@latest"

// Info is what this executable knows of its own build.
type Info struct {
	Version string // the module version: a release tag (v1.2.3), a pseudo-version, or "dev"
	Commit  string // the VCS revision it was built from (12 hex digits, "-dirty" when modified), or ""
}

// stampedVersion and stampedCommit are set by release builds (`make release`: -ldflags -X), which may
// run where the go command stamps no VCS information (-buildvcs=false, a source archive).
var stampedVersion, stampedCommit string

// Build reads the build's module version and VCS revision once.
var Build = sync.OnceValue(func() Info {
	if stampedVersion != "" {
		return Info{Version: stampedVersion, Commit: stampedCommit}
	}
	info := Info{Version: "dev"}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return info
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		info.Version = v
	}
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			info.Commit = s.Value
			if len(info.Commit) > 12 {
				info.Commit = info.Commit[:12]
			}
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if modified && info.Commit != "" {
		info.Commit += "-dirty"
	}
	return info
})

// Line is the `version` command's line for the executable named prog.
func Line(prog string) string {
	b := Build()
	commit := b.Commit
	if commit == "" {
		commit = "unknown"
	}
	return fmt.Sprintf("%s %s (commit %s; agrees with goose %s)", prog, b.Version, commit, Goose)
}

// callerEnv carries, from goose-ls to the goose-ls-agent it hands a command to, the agent version line
// goose-ls expects, so the agent refuses to run for another build at no extra process start.
const callerEnv = "GOOSE_LS_EXPECTS_AGENT"

// ExpectAgentEnv is the environment entry goose-ls adds when it hands a command to goose-ls-agent.
func ExpectAgentEnv() string { return callerEnv + "=" + Line("goose-ls-agent") }

// CheckCaller runs first in goose-ls-agent: when goose-ls handed a command over expecting another build,
// it returns the sentence to print. The entry is removed from the environment either way, so shell
// commands and extensions the agent starts never see it.
func CheckCaller() error {
	want, ok := os.LookupEnv(callerEnv)
	if !ok {
		return nil
	}
	os.Unsetenv(callerEnv)
	return CompareAgent(Line("goose-ls-agent"), want)
}

// CompareAgent is nil when the agent's version line got is the one goose-ls expects (want), else the
// one sentence that says so and names the install line.
func CompareAgent(got, want string) error {
	if got == want {
		return nil
	}
	return fmt.Errorf("the goose-ls-agent beside goose-ls is another version (%q; goose-ls expects %q); reinstall both with: %s", got, want, InstallCommand)
}
