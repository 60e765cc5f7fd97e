// initialize, initialized and shutdown: capabilities and position-encoding negotiation.

package lsp

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"
)

func init() {
	requests["initialize"] = initialize
	requests["shutdown"] = shutdown
	notifications["initialized"] = func(context.Context, *Server, json.RawMessage) error { return nil }
}

type initializeParams struct {
	InitializationOptions json.RawMessage `json:"initializationOptions"`
	RootURI               string          `json:"rootUri"`
	WorkspaceFolders      []struct {
		URI string `json:"uri"`
	} `json:"workspaceFolders"`
	Capabilities struct {
		Window struct {
			WorkDoneProgress bool `json:"workDoneProgress"`
		} `json:"window"`
		General struct {
			PositionEncodings []string `json:"positionEncodings"`
		} `json:"general"`
		Workspace struct {
			WorkspaceEdit struct {
				ResourceOperations      []string        `json:"resourceOperations"`
				ChangeAnnotationSupport json.RawMessage `json:"changeAnnotationSupport"`
			} `json:"workspaceEdit"`
		} `json:"workspace"`
	} `json:"capabilities"`
}

func initialize(_ context.Context, s *Server, raw json.RawMessage) (any, error) {
	var p initializeParams
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	enc := "utf-16"
	for _, e := range p.Capabilities.General.PositionEncodings {
		if e == "utf-8" {
			enc = "utf-8"
		}
	}
	st := settings{DesktopHints: true} // Desktop's form hints are on unless the client turns them off
	if len(p.InitializationOptions) > 0 {
		_ = json.Unmarshal(p.InitializationOptions, &st)
	}
	s.mu.Lock()
	s.settings = st
	s.renameFiles = false
	for _, op := range p.Capabilities.Workspace.WorkspaceEdit.ResourceOperations {
		if op == "rename" {
			s.renameFiles = true
		}
		if op == "create" {
			s.createFiles = true
		}
		if op == "delete" {
			s.deleteFiles = true
		}
	}
	ca := p.Capabilities.Workspace.WorkspaceEdit.ChangeAnnotationSupport
	s.changeAnnotations = len(ca) > 0 && string(ca) != "null" && string(ca) != "false"
	s.progress = p.Capabilities.Window.WorkDoneProgress
	s.root = ""
	s.roots = nil
	for _, f := range p.WorkspaceFolders {
		if r := folderPath(f.URI); r != "" {
			s.roots = append(s.roots, r)
		}
	}
	if len(s.roots) == 0 {
		if r := folderPath(p.RootURI); r != "" {
			s.roots = []string{r}
		}
	}
	if len(s.roots) > 0 {
		s.root = s.roots[0]
	}
	s.state = stateInitialized
	s.utf8 = enc == "utf-8"
	s.mu.Unlock()
	return map[string]any{
		"capabilities": capabilities(enc),
		"serverInfo":   map[string]any{"name": "goose-ls", "version": Version},
	}, nil
}

// folderPath is a workspace folder's path; "" for none, a non-file URI, or the file system's root
// (which some clients send when no folder is open).
func folderPath(u string) string {
	if !strings.HasPrefix(u, "file://") {
		return ""
	}
	p := uriPath(protocol.DocumentURI(u))
	if p == "" || p == string(filepath.Separator) || filepath.Dir(p) == p {
		return ""
	}
	return filepath.Clean(p)
}

// capabilities lists everything the server answers; TestCapabilities keeps it in step with the handlers.
func capabilities(enc string) map[string]any {
	return map[string]any{
		"positionEncoding": enc,
		"textDocumentSync": map[string]any{
			"openClose": true,
			"change":    2, // incremental
			"save":      map[string]any{"includeText": false},
		},
		"hoverProvider":             true,
		"completionProvider":        map[string]any{"triggerCharacters": []string{"{", " ", "|", ":", "-"}},
		"definitionProvider":        true,
		"referencesProvider":        true,
		"documentHighlightProvider": true,
		"renameProvider":            map[string]any{"prepareProvider": true},
		"codeActionProvider":        map[string]any{"codeActionKinds": []string{"quickfix", "refactor.extract"}},
		"documentSymbolProvider":    true,
		"workspaceSymbolProvider":   true,
		"executeCommandProvider":    map[string]any{"commands": commands},
		"foldingRangeProvider":      true,
		"documentLinkProvider":      map[string]any{"resolveProvider": false},
		// no diagnosticProvider: diagnostics are pushed; a client that also pulled (VS Code does when it is
		// advertised) would list every problem twice. textDocument/diagnostic still answers when asked.
		"inlayHintProvider": true,
		"codeLensProvider":  map[string]any{"resolveProvider": false},
		"semanticTokensProvider": map[string]any{
			"legend": map[string]any{"tokenTypes": tokenTypes, "tokenModifiers": []string{}},
			"full":   true,
		},
		// folders added or removed later change the roots recipes may read from (folders.go)
		"workspace": map[string]any{"workspaceFolders": map[string]any{"supported": true, "changeNotifications": true}},
	}
}

func shutdown(_ context.Context, s *Server, _ json.RawMessage) (any, error) {
	s.mu.Lock()
	s.state = stateShutdown
	s.exitCode = 0
	s.mu.Unlock()
	return nil, nil
}

// Version is reported in serverInfo; cmd sets it.
var Version = "dev"
