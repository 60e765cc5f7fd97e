// The template stage beside the YAML stage: for a large recipe that neither extends nor includes a
// template, the YAML parse does not need the template's results, so parse, analysis and validation render
// run on their own goroutine while the YAML and model stages run (on a keystroke in the 3,000-line
// benchmark recipe they are the two largest costs, about a third and a fifth of a re-check).

package recipe

import "context"

// minConcurrentBytes is the size from which the template stage gets its own goroutine.
const minConcurrentBytes = 16 << 10

// templateStage runs the template stage, on its own goroutine when concurrent, and returns join: it
// waits for the stage, merges its results into f (its diagnostics where the sequential order puts them)
// and reports whether the check goes on. join may be called any number of times.
func (f *File) templateStage(ctx context.Context, fsys FS, concurrent bool) (join func() bool) {
	if !concurrent {
		goOn := f.stage(ctx, "template", func() { f.checkTemplate(fsys) })
		return func() bool { return goOn }
	}
	g := *f // the goroutine writes only g; f's other stages write only f
	g.Diags = nil
	before := len(f.Diags)
	done := make(chan bool, 1)
	go func() { done <- g.stage(ctx, "template", func() { g.checkTemplate(fsys) }) }()
	joined, goOn := false, false
	return func() bool {
		if joined {
			return goOn
		}
		joined = true
		goOn = <-done
		f.Template, f.Analysis, f.Parents, f.parentAt, f.RenderSteps, f.renderFailed = g.Template, g.Analysis, g.Parents, g.parentAt, g.RenderSteps, g.renderFailed
		f.Inherits = g.Inherits // false: concurrent only without extends/include, so rendered is not kept
		diags := g.Diags
		if g.stopped {
			if f.stopped { // both saw the context end: one CHECK-STOPPED
				diags = withoutCode(diags, CodeCheckStopped)
			}
			f.stopped = true
		}
		if len(diags) == 0 {
			return goOn
		}
		merged := make([]Diagnostic, 0, len(f.Diags)+len(diags))
		merged = append(merged, f.Diags[:before]...)
		merged = append(merged, diags...)
		f.Diags = append(merged, f.Diags[before:]...)
		return goOn
	}
}

func withoutCode(ds []Diagnostic, code string) []Diagnostic {
	out := ds[:0:0]
	for _, d := range ds {
		if d.Code != code {
			out = append(out, d)
		}
	}
	return out
}
