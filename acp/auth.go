// Authentication: goose-ls's one auth method is the terminal set-up (`goose-ls configure`, the ACP
// registry's terminal auth: the client runs the agent's command with these args in a terminal). A
// session that cannot start for want of a provider, or of its key or settings, is refused with ACP's
// auth_required error naming it, at session/new (where goose resolves the provider too) and at a prompt
// of a session opened before.

package acp

import (
	"context"
	"errors"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/goose-ls/goose-ls/agent/config/secretstore"
	"github.com/goose-ls/goose-ls/agent/provider/setup"
)

// ConfigureMethodID is the terminal auth method's id.
const ConfigureMethodID = "goose-ls-configure"

// configureMethod is the terminal auth method: the client runs the agent's command with args
// ["configure"] in a terminal.
func configureMethod() sdk.AuthMethod {
	return sdk.AuthMethod{Terminal: &sdk.AuthMethodTerminalInline{
		Id:          ConfigureMethodID,
		Name:        "Configure provider",
		Description: sdk.Ptr("Run `goose-ls configure` in a terminal: choose the AI provider and model goose and goose-ls use, and store its API key"),
		Type:        "terminal",
		Args:        []string{"configure"},
	}}
}

// authRequired is ACP's auth_required error for why the provider cannot start, naming the method.
func authRequired(missing *setup.Missing) error {
	reason := missing.Error() + ": run `goose-ls configure` in a terminal (auth method " + ConfigureMethodID + ")"
	return sdk.NewAuthRequired(map[string]any{"reason": reason, "authMethods": []sdk.AuthMethod{configureMethod()}})
}

// providerReady returns auth_required when goose's configuration (read afresh) names no usable provider;
// name is the session's own provider ("" for the configured one). With a provider factory of the
// embedder's (tests, benchmarks) there is nothing to check.
func (a *Agent) providerReady(name string) error {
	if a.opts.Providers != nil {
		return nil
	}
	missing := a.missingProvider(name)
	if missing != nil {
		// the user may have stored the key since this process read the keyring (the terminal set-up
		// runs in a process of its own): read it again before refusing
		secretstore.Reread()
		missing = a.missingProvider(name)
	}
	if missing != nil {
		return authRequired(missing)
	}
	return nil
}

// missingProvider checks the configuration as it is now.
func (a *Agent) missingProvider(name string) *setup.Missing {
	st, err := a.host.Settings()
	if err != nil {
		return nil // the run reports an unreadable configuration in its own words
	}
	var missing *setup.Missing
	if errors.As(setup.Load(st.Config.Dir).Check(st.Config, name), &missing) {
		return missing
	}
	return nil
}

// Authenticate answers for the terminal method once the set-up has left a usable provider, and with
// auth_required (saying what is still missing) otherwise.
func (a *Agent) Authenticate(_ context.Context, p sdk.AuthenticateRequest) (sdk.AuthenticateResponse, error) {
	if p.MethodId != ConfigureMethodID {
		return sdk.AuthenticateResponse{}, sdk.NewInvalidParams(map[string]any{"methodId": p.MethodId, "error": "unknown auth method; goose-ls offers " + ConfigureMethodID})
	}
	// the client ran the set-up in a terminal just now: what this process read of the keyring is old
	secretstore.Reread()
	if err := a.providerReady(""); err != nil {
		return sdk.AuthenticateResponse{}, err
	}
	return sdk.AuthenticateResponse{}, nil
}
