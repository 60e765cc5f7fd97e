// The ACP registry entry (agentclientprotocol/registry's agent.json) for a release: one binary archive
// per platform, started as `goose-ls acp`, with a URL that carries the version as the registry requires.

package main

import (
	"encoding/json"
	"strings"
)

// DownloadBase is where a release's archives are published (GitHub releases of the repository).
const DownloadBase = "https://github.com/goose-ls/goose-ls/releases/download"

// RegistryEntry is agent.json for version v (vX.Y.Z) with archives under base/vX.Y.Z/.
func RegistryEntry(v, base string) ([]byte, error) {
	type target struct {
		Archive string   `json:"archive"`
		Cmd     string   `json:"cmd"`
		Args    []string `json:"args"`
	}
	binary := map[string]target{}
	for _, p := range Platforms {
		binary[p.Name] = target{
			Archive: strings.TrimRight(base, "/") + "/" + v + "/" + ArchiveName(v, p),
			Cmd:     "./" + exe("goose-ls", p),
			Args:    []string{"acp"},
		}
	}
	entry := struct {
		ID           string                       `json:"id"`
		Name         string                       `json:"name"`
		Version      string                       `json:"version"`
		Description  string                       `json:"description"`
		Repository   string                       `json:"repository"`
		Authors      []string                     `json:"authors"`
		License      string                       `json:"license"`
		Icon         string                       `json:"icon"`
		Distribution map[string]map[string]target `json:"distribution"`
	}{
		ID:           "goose-ls",
		Name:         "goose-ls",
		Version:      strings.TrimPrefix(v, "v"),
		Description:  "goose's agent and recipes in your editor: runs goose recipes and prompts with goose's config, keys and sessions",
		Repository:   "https://github.com/goose-ls/goose-ls",
		Authors:      []string{"goose-ls developers"},
		License:      "Apache-2.0",
		Icon:         "./icon.svg",
		Distribution: map[string]map[string]target{"binary": binary},
	}
	b, err := json.MarshalIndent(entry, "", "  ")
	return append(b, '\n'), err
}
