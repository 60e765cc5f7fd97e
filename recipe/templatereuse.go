// The template stage's per-document memo: the last parse (and its analysis and validation render) of a
// document, re-used when a keystroke stays inside the text of one template-data node (template.Reparse):
// the profile of a keystroke in the 3,000-line benchmark recipe had parse + analysis + render at a
// quarter of its time.

package recipe

import (
	"sync"

	"github.com/goose-ls/goose-ls/recipe/template"
)

// templateMemo is the last successful template parse of one document. Safe for concurrent use (checks
// of successive versions may overlap); every field set together describes one text.
type templateMemo struct {
	mu       sync.Mutex
	tpl      *template.Template // parsed without error; nil: nothing kept
	analysis *template.Analysis
	// render: the validation render of tpl succeeded without loading any template (so it is a function
	// of tpl alone), took steps and wrote at most outLen bytes
	renderClean bool
	steps       int
	outLen      int
}

type templateMemoState struct {
	tpl         *template.Template
	analysis    *template.Analysis
	renderClean bool
	steps       int
	outLen      int
}

func (c *Cache) templateMemo() *templateMemo {
	if c == nil {
		return nil
	}
	return &c.tmpl
}

func (m *templateMemo) load() templateMemoState {
	m.mu.Lock()
	defer m.mu.Unlock()
	return templateMemoState{m.tpl, m.analysis, m.renderClean, m.steps, m.outLen}
}

func (m *templateMemo) store(s templateMemoState) {
	if m == nil {
		return
	}
	m.mu.Lock()
	m.tpl, m.analysis, m.renderClean, m.steps, m.outLen = s.tpl, s.analysis, s.renderClean, s.steps, s.outLen
	m.mu.Unlock()
}

// reuseTemplate fills the template stage's results from the memo when the pre-processed text allows it
// (template.Reparse): template and analysis always, the render's when the edited text only reaches the
// output. It reports whether the stage is done.
func (f *File) reuseTemplate(fsys FS) bool {
	m := f.cache.templateMemo()
	if m == nil {
		return false
	}
	prev := m.load()
	if prev.tpl == nil {
		return false
	}
	r, ok := template.Reparse(prev.tpl, f.Pre.Text)
	if !ok {
		return false
	}
	f.Template = r.Template
	f.Analysis = prev.analysis.Shifted(r.Edit)
	f.Inherits = usesInheritance(f.Pre.Text)
	// the edited text is written once or not at all: the output grows by at most this much
	outLen := prev.outLen + max(r.Edit.NewEnd-r.Edit.OldEnd, 0)
	next := templateMemoState{tpl: r.Template, analysis: f.Analysis}
	if prev.renderClean && r.OutputOnly && !f.Inherits && outLen <= template.DefaultMaxOutput {
		// the render writes the same text but for the edit, with the same steps and no error (its
		// output stays within the cap)
		f.RenderSteps = prev.steps
		next.renderClean, next.steps, next.outLen = true, prev.steps, outLen
		m.store(next)
		return true
	}
	f.renderTemplate(fsys)
	f.rememberTemplate()
	return true
}

// rememberTemplate keeps f's parse, analysis and render in the document's memo.
func (f *File) rememberTemplate() {
	m := f.cache.templateMemo()
	if m == nil || f.Template == nil || f.rendered == nil {
		return
	}
	m.store(templateMemoState{tpl: f.Template, analysis: f.Analysis, steps: f.RenderSteps, outLen: len(f.rendered.Text),
		renderClean: !f.renderFailed && len(f.rendered.Loaded) == 0})
}
