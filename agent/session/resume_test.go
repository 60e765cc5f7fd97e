// A goose session's stored recipe loads again for a resume (the CLI's path when no recipe file is known).
package session_test

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/goose-ls/goose-ls/agent"
	"github.com/goose-ls/goose-ls/agent/session"
)

func TestGooseRecipeJSONLoadsForResume(t *testing.T) {
	// goose's Recipe as serde writes it: rendered, with the parameters it was rendered with
	stored := `{"version":"1.0.0","title":"Greeter","description":"greets","instructions":"Greet Ada in one line.","prompt":"Say hello to Ada",` +
		`"parameters":[{"key":"who","input_type":"string","requirement":"required","description":"who to greet"}],` +
		`"settings":{"goose_provider":"openai","goose_model":"gpt-4o","temperature":0.2}}`
	sess := session.Session{ID: "20261122_1", Recipe: json.RawMessage(stored)}
	text := sess.ResumeRecipe()
	if text == nil {
		t.Fatal("no recipe to resume")
	}
	doc, _, err := agent.LoadRecipeText(filepath.Join(t.TempDir(), sess.ID+".recipe.json"), text, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Instructions != "Greet Ada in one line." || doc.Prompt != "Say hello to Ada" || doc.Settings == nil || doc.Settings.Model != "gpt-4o" {
		t.Errorf("doc %+v", doc)
	}
	if (session.Session{Recipe: json.RawMessage(`not json`)}).ResumeRecipe() != nil || (session.Session{}).ResumeRecipe() != nil {
		t.Error("a recipe from nothing")
	}
}
