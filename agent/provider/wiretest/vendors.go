// The vendors the scripted servers speak, each with its provider pointed at a server.

package wiretest

import (
	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/provider/anthropic"
	"github.com/goose-ls/goose-ls/agent/provider/openai"
)

// Vendor is one wire format: a scripted server and the provider that talks to it.
type Vendor struct {
	Name  string
	Serve func(Script) *Server
	// Provider connects to a server started by Serve (keys: sk-test, ak-test).
	Provider func(url string) provider.Provider
}

// Vendors lists OpenAI chat completions and Anthropic messages.
var Vendors = []Vendor{
	{"openai", OpenAI, func(url string) provider.Provider {
		return openai.New(openai.Config{BaseURL: url + "/v1/", APIKey: "sk-test", IncludeUsage: true})
	}},
	{"anthropic", Anthropic, func(url string) provider.Provider {
		return anthropic.New(anthropic.Config{BaseURL: url, APIKey: "ak-test"})
	}},
}

// Responses is OpenAI's Responses API (kept out of Vendors: the agent's loop tests read chat-shaped
// request bodies); vendortest runs the shared provider tests over it too.
var Responses = Vendor{"responses", OpenAIResponses, func(url string) provider.Provider {
	return openai.New(openai.Config{Name: "openai", BaseURL: url + "/v1/", APIKey: "sk-test", Responses: true})
}}
