// Settings every run loads from goose's configuration, shared by the CLI and the language server.

package agent

import (
	"path/filepath"

	"github.com/goose-ls/goose-ls/agent/config"
)

// Settings are goose's configuration, the permission mode and the per-tool permissions.
type Settings struct {
	Config *config.Config
	Mode   Mode
	Perms  *Permissions
	// PermsErr is a permission.yaml that could not be read (the run goes on with none).
	PermsErr error
}

// LoadSettings reads config.yaml/secrets.yaml (environment first), GOOSE_MODE and permission.yaml.
func LoadSettings(env func(string) (string, bool)) (Settings, error) {
	cfg, err := config.Load(env)
	if err != nil {
		return Settings{}, err
	}
	mode, err := ParseMode(cfg.GetOr("GOOSE_MODE", ""))
	if err != nil {
		return Settings{Config: cfg}, err
	}
	perms, perr := LoadPermissions(filepath.Join(cfg.Dir, "permission.yaml")) // empty permissions on error
	return Settings{Config: cfg, Mode: mode, Perms: perms, PermsErr: perr}, nil
}
