// The template cache: the last parse (and its analysis and validation render) of a document, which
// serves the next text when an edit stays inside the text of one template-data node (template.Reparse),
// as typing in prose and most structural YAML edits do: parse + analysis + render were a quarter of a
// keystroke in the heavy recipe's profile.

package recipe

import (
	"sync"

	"github.com/goose-ls/goose-ls/recipe/template"
)

// templateCache holds the last successful template parse of one document. Safe for concurrent use
// (checks of successive versions may overlap).
type templateCache struct {
	mu    sync.Mutex
	entry templateEntry
}

// templateEntry describes one text: its parse (nil: nothing kept), analysis and validation render.
type templateEntry struct {
	tpl      *template.Template
	analysis *template.Analysis
	// renderClean: the validation render of tpl succeeded without loading any template (so it is a
	// function of tpl alone), took steps and wrote at most outLen bytes
	renderClean bool
	steps       int
	outLen      int
}

func (c *Cache) templateCache() *templateCache {
	if c == nil {
		return nil
	}
	return &c.template
}

func (m *templateCache) load() templateEntry {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.entry
}

func (m *templateCache) store(e templateEntry) {
	if m == nil {
		return
	}
	m.mu.Lock()
	m.entry = e
	m.mu.Unlock()
}

// cachedTemplate fills the template stage's results from the template cache when the pre-processed text
// allows it (template.Reparse): template and analysis always, the render's when the edited text only
// reaches the output. It reports whether the stage is done.
func (f *File) cachedTemplate(fsys FS) bool {
	m := f.cache.templateCache()
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
	next := templateEntry{tpl: r.Template, analysis: f.Analysis}
	if prev.renderClean && r.OutputOnly && !f.Inherits && outLen <= template.DefaultMaxOutput {
		// the render writes the same text but for the edit, with the same steps and no error (its
		// output stays within the cap)
		f.RenderSteps = prev.steps
		next.renderClean, next.steps, next.outLen = true, prev.steps, outLen
		m.store(next)
		return true
	}
	f.renderTemplate(fsys)
	f.keepTemplate()
	return true
}

// keepTemplate keeps f's parse, analysis and render in the template cache.
func (f *File) keepTemplate() {
	m := f.cache.templateCache()
	if m == nil || f.Template == nil || f.rendered == nil {
		return
	}
	m.store(templateEntry{tpl: f.Template, analysis: f.Analysis, steps: f.RenderSteps, outLen: len(f.rendered.Text),
		renderClean: !f.renderFailed && len(f.rendered.Loaded) == 0})
}
