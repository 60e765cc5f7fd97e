// The final-output tool (`recipe__final_output`): its input schema is the recipe's response.json_schema;
// arguments are validated, errors go back to the model, a valid answer is kept as one line of JSON.

package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/goose-ls/goose-ls/agent/tools"
	"github.com/goose-ls/goose-ls/recipe"
)

// FinalOutputContinuation is the nudge when a turn ends without the final output.
const FinalOutputContinuation = "You MUST call the `final_output` tool NOW with the final output for the user."

// FinalOutput is the recipe extension holding the final-output tool.
type FinalOutput struct {
	schema   json.RawMessage
	compiled *jsonschema.Schema
	mu       sync.Mutex
	output   string
}

// NewFinalOutput compiles the recipe's json_schema (required, non-empty, a valid schema).
func NewFinalOutput(schema json.RawMessage) (*FinalOutput, error) {
	trimmed := bytes.TrimSpace(schema)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return nil, errors.New("Cannot create FinalOutputTool: json_schema is required")
	}
	var m map[string]any
	if err := json.Unmarshal(trimmed, &m); err != nil {
		return nil, fmt.Errorf("Cannot create FinalOutputTool: %w", err)
	}
	if len(m) == 0 {
		return nil, errors.New("Cannot create FinalOutputTool: empty json_schema is not allowed")
	}
	c := jsonschema.NewCompiler()
	c.LoadURL = recipe.RefuseExternalRef // only refs inside the schema: no file or URL is ever loaded
	if err := c.AddResource("final_output.json", bytes.NewReader(trimmed)); err != nil {
		return nil, fmt.Errorf("Cannot create FinalOutputTool: %w", err)
	}
	compiled, err := c.Compile("final_output.json")
	if err != nil {
		return nil, fmt.Errorf("Cannot create FinalOutputTool: %w", err)
	}
	return &FinalOutput{schema: trimmed, compiled: compiled}, nil
}

// Name is the extension key: the tool is `recipe__final_output`.
func (f *FinalOutput) Name() string { return "recipe" }

// Unprefixed is false.
func (f *FinalOutput) Unprefixed() bool { return false }

// Instructions are goose's final-output instructions with the schema.
func (f *FinalOutput) Instructions() string { return "" }

// SystemPrompt is appended to the system prompt under "Additional Instructions".
func (f *FinalOutput) SystemPrompt() string {
	var pretty bytes.Buffer
	_ = json.Indent(&pretty, f.schema, "", "  ")
	return "# Final Output Instructions\n\nYou MUST use the `final_output` tool to collect the final output for the user rather than providing the output directly in your response.\nThe final output MUST be a valid JSON object that is provided to the `final_output` tool when the task is complete.\nThe JSON output must match the following schema:\n\n" + pretty.String() + "\n\n----"
}

// Tools is the one tool.
func (f *FinalOutput) Tools() []tools.Spec {
	return []tools.Spec{{
		Name:        "final_output",
		Description: "This tool collects the final output for a user and provides validation for structured JSON final output against a predefined schema.\n\nThis final output tool MUST be called with the final output for the user.",
		InputSchema: f.schema, Annotated: true, ReadOnly: true,
	}}
}

// Call validates and stores the output.
func (f *FinalOutput) Call(_ context.Context, _ string, args json.RawMessage) tools.Result {
	var v any
	if err := json.Unmarshal(args, &v); err != nil {
		return tools.Result{Text: "Validation failed:\n- " + err.Error(), IsError: true}
	}
	if err := f.compiled.Validate(v); err != nil {
		var b strings.Builder
		b.WriteString("Validation failed:\n")
		var ve *jsonschema.ValidationError
		if errors.As(err, &ve) {
			for _, leaf := range leaves(ve) {
				loc := leaf.InstanceLocation
				if loc == "" {
					loc = "/"
				}
				fmt.Fprintf(&b, "- %s: %s\n", loc, leaf.Message)
			}
		} else {
			fmt.Fprintf(&b, "- %v\n", err)
		}
		var pretty bytes.Buffer
		_ = json.Indent(&pretty, f.schema, "", "  ")
		fmt.Fprintf(&b, "\nExpected format:\n%s\n\nPlease correct your output to match the expected JSON schema and try again.", pretty.String())
		return tools.Result{Text: b.String(), IsError: true}
	}
	compact, _ := json.Marshal(v)
	f.mu.Lock()
	f.output = string(compact)
	f.mu.Unlock()
	return tools.Result{Text: "Final output successfully collected."}
}

func leaves(ve *jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(ve.Causes) == 0 {
		return []*jsonschema.ValidationError{ve}
	}
	var out []*jsonschema.ValidationError
	for _, c := range ve.Causes {
		out = append(out, leaves(c)...)
	}
	return out
}

// Output returns the collected output ("" when none yet).
func (f *FinalOutput) Output() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.output
}

// Reset forgets the output (the retry flow starts over).
func (f *FinalOutput) Reset() {
	f.mu.Lock()
	f.output = ""
	f.mu.Unlock()
}

// Close does nothing.
func (f *FinalOutput) Close() error { return nil }
