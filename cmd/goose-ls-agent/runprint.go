// Printing a run's events: the main agent's text to stdout as it streams, everything else to stderr;
// with --output json, one JSON document on stdout at the end. Events and the Outcome arrive redacted
// (the run redacts at its source), so nothing is redacted here.

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"

	"github.com/goose-ls/goose-ls/agent"
)

type eventPrinter struct {
	mu         sync.Mutex
	stdout     io.Writer
	stderr     io.Writer
	json       bool
	midLine    bool // stdout's last text did not end a line
	finalPrint string
}

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		s = s[:n] + "…"
	}
	return s
}

func (p *eventPrinter) text(s string) {
	if p.json {
		return
	}
	fmt.Fprint(p.stdout, s)
	p.midLine = !strings.HasSuffix(s, "\n")
}

func (p *eventPrinter) endLine() {
	if p.midLine && !p.json {
		fmt.Fprintln(p.stdout)
		p.midLine = false
	}
}

func (p *eventPrinter) print(e agent.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	who := ""
	if e.Agent != "" {
		who = "[" + e.Agent + "] "
	}
	switch e.Kind {
	case agent.EventText:
		if e.Agent != "" {
			return // sub-agents' text is summarised by their tool result
		}
		p.text(e.Text)
	case agent.EventMessage:
		if e.Agent == "" {
			p.endLine()
			p.text(e.Text + "\n")
		} else {
			fmt.Fprintf(p.stderr, "%s%s\n", who, e.Text)
		}
	case agent.EventToolStart:
		p.endLine()
		fmt.Fprintf(p.stderr, "%s▸ %s %s\n", who, e.Call.Name, oneLine(string(e.Call.Arguments), 160))
	case agent.EventToolEnd:
		mark := "✓"
		if e.Result.IsError {
			mark = "✗"
		}
		fmt.Fprintf(p.stderr, "%s  %s %s: %s\n", who, mark, e.Call.Name, oneLine(e.Result.Text, 160))
	case agent.EventNotice:
		p.endLine()
		fmt.Fprintf(p.stderr, "%s%s\n", who, e.Text)
	case agent.EventError:
		if e.Agent == "" {
			slog.Debug("run error", "err", e.Err.Error())
		}
	case agent.EventFinalOutput:
		if e.Agent == "" {
			p.finalPrint = e.Text
		}
	}
}

// finish prints the final output (text mode) or the JSON document.
func (p *eventPrinter) finish(out agent.Outcome) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.json {
		p.endLine()
		if p.finalPrint != "" {
			fmt.Fprintln(p.stdout, p.finalPrint)
		}
		return
	}
	doc := map[string]any{
		"messages": out.Messages,
		"metadata": map[string]any{
			"status": string(out.Status), "total_tokens": out.Usage.InputTokens + out.Usage.OutputTokens,
			"input_tokens": out.Usage.InputTokens, "output_tokens": out.Usage.OutputTokens,
		},
	}
	if out.FinalOutput != "" {
		doc["final_output"] = json.RawMessage(out.FinalOutput)
	}
	b, _ := json.Marshal(doc)
	fmt.Fprintln(p.stdout, string(b))
}
