// Package version names this build of goose-ls and the goose release whose behaviour it reproduces.
package version

import (
	"fmt"
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
