// The server's settings: initializationOptions, then workspace/didChangeConfiguration.

package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

func init() {
	notifications["workspace/didChangeConfiguration"] = didChangeConfiguration
}

// settings are the client-configurable options.
type settings struct {
	InlayHints bool `json:"inlayHints"`
	// NoSessions: editor runs are not stored as goose sessions.
	NoSessions bool `json:"noSessions"`
	// ReviewEdits: the agent's edits carry change annotations that need the user's confirmation.
	ReviewEdits bool `json:"reviewEdits"`
	// RunRecipeCommand: the command a "▶ Run recipe" code lens runs; no lens when empty.
	RunRecipeCommand string `json:"runRecipeCommand"`
	// CheckTimeoutMs is the deadline of one document check in milliseconds (0: the server's default).
	CheckTimeoutMs int `json:"checkTimeoutMs"`
	// DesktopHints adds DESKTOP-FORM hints (on by default): what goose Desktop's recipe form refuses and the CLI accepts.
	DesktopHints bool `json:"desktopHints"`
}

func didChangeConfiguration(_ context.Context, s *Server, raw json.RawMessage) error {
	var p struct {
		Settings json.RawMessage `json:"settings"`
	}
	if err := decode(raw, &p); err != nil {
		return err
	}
	// accept {"goose": {...}}, {"goose-ls": {...}} or the settings object itself
	var nested map[string]json.RawMessage
	body := p.Settings
	if json.Unmarshal(p.Settings, &nested) == nil {
		for _, k := range []string{"goose", "goose-ls", "gooseLs"} {
			if v, ok := nested[k]; ok {
				body = v
			}
		}
	}
	if len(body) == 0 {
		return nil
	}
	// settings absent from the message keep their value (a client may send only what changed)
	s.mu.Lock()
	st := s.settings
	s.mu.Unlock()
	if err := json.Unmarshal(body, &st); err != nil {
		return &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: "settings: " + err.Error()}
	}
	s.mu.Lock()
	recheck := st.DesktopHints != s.settings.DesktopHints
	s.settings = st
	var uris []protocol.DocumentURI
	if recheck { // every cached check was made with the other setting
		for u, d := range s.docs {
			d.gen = s.nextGen()
			uris = append(uris, u)
		}
	}
	s.mu.Unlock()
	for _, u := range uris {
		s.schedule(u)
	}
	return nil
}
