// Command testserver is the MCP server the agent's tests start as a real subprocess (stdio) or HTTP
// server (streamable HTTP): echo, env, add, slow, meta, pwd and fail tools; it can flood stderr or hang at start.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func main() {
	httpAddr := flag.String("http", "", "serve streamable HTTP on this address (127.0.0.1:0 picks a port, printed on stdout)")
	flood := flag.Int("flood-stderr", 0, "write this many KiB to stderr before serving and on every call")
	hang := flag.Bool("hang", false, "never answer: sleep before serving")
	flag.Parse()
	if *hang {
		time.Sleep(time.Hour)
	}
	spam := func() {
		line := strings.Repeat("x", 1023) + "\n"
		for i := 0; i < *flood; i++ {
			fmt.Fprint(os.Stderr, line)
		}
	}
	spam()
	s := server.NewMCPServer("goose-ls-testserver", "1.0", server.WithToolCapabilities(false),
		server.WithInstructions("Test server: echo things back."))
	s.AddTool(mcp.NewTool("echo", mcp.WithDescription("Echo the text back"), mcp.WithString("text", mcp.Required()), mcp.WithReadOnlyHintAnnotation(true)),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			spam()
			return mcp.NewToolResultText("echo: " + req.GetString("text", "")), nil
		})
	s.AddTool(mcp.NewTool("env", mcp.WithDescription("Show an environment variable"), mcp.WithString("name", mcp.Required())),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			v, ok := os.LookupEnv(req.GetString("name", ""))
			if !ok {
				return mcp.NewToolResultText("(unset)"), nil
			}
			return mcp.NewToolResultText(v), nil
		})
	s.AddTool(mcp.NewTool("add", mcp.WithDescription("Add two numbers"), mcp.WithNumber("a", mcp.Required()), mcp.WithNumber("b", mcp.Required())),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(fmt.Sprint(req.GetFloat("a", 0) + req.GetFloat("b", 0))), nil
		})
	s.AddTool(mcp.NewTool("slow", mcp.WithDescription("Sleep ms milliseconds"), mcp.WithNumber("ms", mcp.Required())),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			select {
			case <-time.After(time.Duration(req.GetFloat("ms", 0)) * time.Millisecond):
				return mcp.NewToolResultText("slept"), nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		})
	s.AddTool(mcp.NewTool("meta", mcp.WithDescription("Show the request's _meta fields")),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			fields := map[string]any{}
			if m := req.Params.Meta; m != nil {
				fields = m.AdditionalFields
			}
			b, err := json.Marshal(fields)
			if err != nil {
				return nil, err
			}
			return mcp.NewToolResultText(string(b)), nil
		})
	s.AddTool(mcp.NewTool("pwd", mcp.WithDescription("Show the folder the server runs in")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			dir, err := os.Getwd()
			if err != nil {
				return nil, err
			}
			return mcp.NewToolResultText(dir), nil
		})
	s.AddTool(mcp.NewTool("fail", mcp.WithDescription("Always fails")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultError("this tool always fails"), nil
		})
	if *httpAddr != "" {
		ln, err := net.Listen("tcp", *httpAddr)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("http://%s/mcp\n", ln.Addr())
		h := server.NewStreamableHTTPServer(s)
		log.Fatal(http.Serve(ln, h))
	}
	if err := server.ServeStdio(s); err != nil {
		log.Fatal(err)
	}
}
