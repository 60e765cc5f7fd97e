// delegate's task building in goose's order: context and instructions, inherited extensions and their
// filter, provider/model/temperature precedence.
package agent

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goose-ls/goose-ls/agent/provider"
)

func strp(s string) *string { return &s }

func TestDelegateTaskBuilding(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "sub", "report.yaml"), reportChild)
	s := summonFor(t, root, delegatingParent, func(st provider.Settings) (provider.Setup, error) {
		return provider.Setup{Name: st.Provider, Model: st.Model, Temperature: st.Temperature}, nil
	})
	names := func(es []ExtensionDoc) []string {
		out := []string{}
		for _, e := range es {
			out = append(out, e.Name)
		}
		return out
	}
	if diff := cmp.Diff([]string{"developer", "analyze", "summon"}, names(s.enabled)); diff != "" {
		t.Fatalf("the parent's extensions (-want +got):\n%s", diff)
	}
	params := map[string]json.RawMessage{"count": json.RawMessage(`2`)}
	cases := []struct {
		name       string
		p          delegateParams
		extensions []string
		instr      string
		prompt     string
	}{
		{"context replaces instructions, keeping them below", delegateParams{Source: strp("report"), Context: strp("CTX")}, []string{"developer", "analyze", "summon"},
			"# Reference Context\n\nCTX\n\n# Task Instructions\n\nYou write reports.", "Write report.txt with one line about goose in plain style, 2 times."},
		{"an empty extensions list: none", delegateParams{Source: strp("report"), Extensions: &[]string{}}, []string{},
			"You write reports.", "Write report.txt with one line about goose in plain style, 2 times."},
		{"named extensions are kept, unknown names ignored", delegateParams{Source: strp("report"), Extensions: &[]string{"developer", "nope"}, Instructions: strp("Now.")}, []string{"developer"},
			"You write reports.", "Write report.txt with one line about goose in plain style, 2 times.\n\nNow."},
		{"ad hoc: the instructions are the prompt", delegateParams{Instructions: strp("Do it."), Context: strp("CTX")}, []string{"developer", "analyze", "summon"},
			"# Reference Context\n\nCTX", "Do it."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := c.p
			if p.Source != nil {
				p.Parameters = map[string]json.RawMessage{}
				for k, v := range params {
					p.Parameters[k] = v
				}
			}
			task, err := s.prepare(&p)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.extensions, names(task.opts.sub.extensions)); diff != "" {
				t.Errorf("inherited extensions (-want +got):\n%s", diff)
			}
			if task.doc.Instructions != c.instr || task.doc.Prompt != c.prompt {
				t.Errorf("instructions %q prompt %q", task.doc.Instructions, task.doc.Prompt)
			}
			if task.opts.Mode != ModeAuto || task.opts.Approver != nil || task.opts.Recorder != nil || task.opts.MaxTurns != 7 {
				t.Errorf("sub-agent options: mode %q, approver %v, recorder %v, max turns %d", task.opts.Mode, task.opts.Approver, task.opts.Recorder, task.opts.MaxTurns)
			}
		})
	}
}

func TestSubagentProviderPrecedence(t *testing.T) {
	temp := func(v float64) *float64 { return &v }
	parent := provider.Setup{Name: "openai", Model: "gpt-4o", Temperature: temp(0.1)}
	cases := []struct {
		name   string
		p      delegateParams
		recipe *docSettings
		env    map[string]string
		want   provider.Settings
	}{
		{"the parent's by default", delegateParams{}, nil, nil, provider.Settings{Provider: "openai", Model: "gpt-4o", Temperature: temp(0.1)}},
		{"GOOSE_SUBAGENT_* over the parent's", delegateParams{}, nil, map[string]string{"GOOSE_SUBAGENT_PROVIDER": "anthropic", "GOOSE_SUBAGENT_MODEL": "claude"},
			provider.Settings{Provider: "anthropic", Model: "claude", Temperature: temp(0.1)}},
		{"the sub-recipe's settings over the environment", delegateParams{}, &docSettings{Provider: "ollama", Model: "qwen", Temperature: temp(0.5)},
			map[string]string{"GOOSE_SUBAGENT_PROVIDER": "anthropic", "GOOSE_SUBAGENT_MODEL": "claude"}, provider.Settings{Provider: "ollama", Model: "qwen", Temperature: temp(0.5)}},
		{"the call's arguments first", delegateParams{Provider: strp("groq"), Model: strp("llama"), Temperature: temp(0.9)}, &docSettings{Provider: "ollama", Model: "qwen", Temperature: temp(0.5)},
			map[string]string{"GOOSE_SUBAGENT_PROVIDER": "anthropic"}, provider.Settings{Provider: "groq", Model: "llama", Temperature: temp(0.9)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := &summonExt{env: &runEnv{doc: &Doc{}, model: parent}}
			s.opts.Lookup = func(k string) (string, bool) { v, ok := c.env[k]; return v, ok }
			if diff := cmp.Diff(c.want, s.subagentSettings(&c.p, &Doc{Settings: c.recipe})); diff != "" {
				t.Errorf("settings (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSubagentSystemPromptText(t *testing.T) {
	box := NewToolbox(Mount{Ext: named{"x", []string{"write", "load"}}})
	want := "You are a specialized subagent within the goose AI framework, created by AAIF (Agentic AI Foundation). You were spawned by the main goose agent to handle a specific task efficiently.\n\n" +
		"# Your Role\nYou are an autonomous subagent with these characteristics:\n" +
		"- **Independence**: Make decisions and execute tools within your scope\n" +
		"- **Specialization**: Focus on specific tasks assigned by the main agent\n" +
		"- **Efficiency**: Use tools sparingly and only when necessary\n" +
		"- **Bounded Operation**: Operate within defined limits (turn count, timeout)\n" +
		"- **Security**: Cannot spawn additional subagents\n" +
		"The maximum number of turns to respond is 9.\n\n" +
		"**Subagent ID**: 20260101_3\n\n" +
		"%s" +
		"# Tool Usage Guidelines\n" +
		"**CRITICAL**: Be efficient with tool usage. Use tools only when absolutely necessary to complete your task. Here are the available tools you have access to:\n" +
		"You have access to 2 tools: load, write\n\n" +
		"**Tool Efficiency Rules**:\n"
	for instr, block := range map[string]string{"Be brief.": "# Task Instructions\nBe brief.\n\n", "": "\n"} {
		got := subagentSystemPrompt(box, "20260101_3", 9, instr, nil, t.TempDir())
		if w := fmt.Sprintf(want, block); !strings.HasPrefix(got, w) {
			t.Errorf("instructions %q: prompt starts (-want +got):\n%s", instr, cmp.Diff(w, got[:min(len(got), len(w))]))
		}
		if !strings.HasSuffix(got, "Complete your task efficiently with less tool usage.") {
			t.Errorf("prompt end: %q", got[len(got)-80:])
		}
	}
}
