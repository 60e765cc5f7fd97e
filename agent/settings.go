// Settings every run loads from goose's configuration, shared by the CLI and the language server.

package agent

import (
	"path/filepath"

	"github.com/goose-ls/goose-ls/agent/config"
	"github.com/goose-ls/goose-ls/agent/config/secretstore"
)

// Settings are goose's configuration, the permission mode and the per-tool permissions.
type Settings struct {
	Config *config.Config
	// Secrets is goose's secret storage behind Config (the keyring, or secrets.yaml); its notice and
	// values are reported through Secrets.Watch.
	Secrets *secretstore.Store
	Mode    Mode
	Perms   *Permissions
	// PermsErr is a permission.yaml that could not be read (the run goes on with none).
	PermsErr error
}

// LoadSettings reads config.yaml and goose's secrets (environment first), GOOSE_MODE and permission.yaml.
func LoadSettings(env func(string) (string, bool)) (Settings, error) {
	cfg, secrets, err := secretstore.Load(env)
	if err != nil {
		return Settings{}, err
	}
	mode, err := ParseMode(cfg.GetOr("GOOSE_MODE", ""))
	if err != nil {
		return Settings{Config: cfg, Secrets: secrets}, err
	}
	perms, perr := LoadPermissions(filepath.Join(cfg.Dir, "permission.yaml")) // empty permissions on error
	return Settings{Config: cfg, Secrets: secrets, Mode: mode, Perms: perms, PermsErr: perr}, nil
}
