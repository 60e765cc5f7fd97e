// workspace/didChangeWorkspaceFolders: folders added or removed change the roots recipes may read from,
// and every open recipe is checked again against the new roots.

package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"
)

func init() {
	notifications["workspace/didChangeWorkspaceFolders"] = didChangeWorkspaceFolders
}

type workspaceFoldersChange struct {
	Event struct {
		Added   []struct{ URI string } `json:"added"`
		Removed []struct{ URI string } `json:"removed"`
	} `json:"event"`
}

func didChangeWorkspaceFolders(_ context.Context, s *Server, raw json.RawMessage) error {
	var p workspaceFoldersChange
	if err := decode(raw, &p); err != nil {
		return err
	}
	removed := map[string]bool{}
	for _, f := range p.Event.Removed {
		if r := folderPath(f.URI); r != "" {
			removed[r] = true
		}
	}
	s.mu.Lock()
	roots := make([]string, 0, len(s.roots)+len(p.Event.Added))
	seen := map[string]bool{}
	for _, r := range s.roots {
		if !removed[r] && !seen[r] {
			roots, seen[r] = append(roots, r), true
		}
	}
	for _, f := range p.Event.Added {
		if r := folderPath(f.URI); r != "" && !seen[r] {
			roots, seen[r] = append(roots, r), true
		}
	}
	s.roots = roots
	s.root = ""
	if len(roots) > 0 {
		s.root = roots[0]
	}
	// every cached check was made against the old roots
	uris := make([]protocol.DocumentURI, 0, len(s.docs))
	for u, d := range s.docs {
		d.gen = s.nextGen()
		uris = append(uris, u)
	}
	s.mu.Unlock()
	for _, u := range uris {
		s.schedule(u)
	}
	return nil
}
