// Package agentrelay carries the language server's agent commands to an agent in another process (the
// goose-ls-agent binary, which links the providers' SDKs, SQLite and MCP), and that agent's use of the
// editor back: JSON-RPC 2.0 with Content-Length frames over the child's stdin and stdout.
//
// The server side (Relay) is an lsp.Agent; the agent side is an lsp.Editor (RemoteEditor) that the
// agent process hands to lsp/editoragent.
package agentrelay

import "encoding/json"

// The methods of the relay. agent/* go from the server to the agent process, editor/* come back.
const (
	// MethodExecute runs one of lsp.AgentCommands: ExecuteParams → the command's result.
	MethodExecute = "agent/execute"
	// MethodCancelProgress (notification) cancels the run reporting progress under a token.
	MethodCancelProgress = "agent/cancelProgress"

	methodState         = "editor/state"         // → state
	methodDoc           = "editor/doc"           // uriParams → *docReply (null: not open)
	methodAwaitText     = "editor/awaitText"     // awaitParams → awaitReply
	methodCall          = "editor/call"          // callParams → the client's result
	methodNotify        = "editor/notify"        // (notification) callParams
	methodBuffer        = "editor/buffer"        // pathParams → bufferReply
	methodProgressBegin = "editor/progressBegin" // progressParams → nothing
	methodProgress      = "editor/progress"      // (notification) progressParams: a report or the end
)

// ExecuteParams names the command and its first argument.
type ExecuteParams struct {
	Command string          `json:"command"`
	Arg     json.RawMessage `json:"arg"`
}

type tokenParams struct {
	Token string `json:"token"`
}

// state is what the agent reads of the server's settings and the client's abilities.
type state struct {
	Root        string `json:"root"`
	NoSessions  bool   `json:"noSessions"`
	ReviewEdits bool   `json:"reviewEdits"`
	UTF8        bool   `json:"utf8"`
	CreateFiles bool   `json:"createFiles"`
	DeleteFiles bool   `json:"deleteFiles"`
	Annotations bool   `json:"changeAnnotations"`
	Progress    bool   `json:"progress"`
}

type uriParams struct {
	URI string `json:"uri"`
}

type docReply struct {
	Text    string `json:"text"`
	Version int32  `json:"version"`
}

type awaitParams struct {
	URI       string `json:"uri"`
	Want      string `json:"want"`
	TimeoutMs int64  `json:"timeoutMs"`
}

type awaitReply struct {
	Text string `json:"text"`
	OK   bool   `json:"ok"`
}

type callParams struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

type pathParams struct {
	Path string `json:"path"`
}

type bufferReply struct {
	Text string `json:"text"`
	Open bool   `json:"open"`
}

type progressParams struct {
	Token string `json:"token"`
	Title string `json:"title,omitempty"`
	// Kind is "report" or "end" (editor/progress).
	Kind    string `json:"kind,omitempty"`
	Message string `json:"message,omitempty"`
}
