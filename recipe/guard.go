// Guards of the check pipeline: each stage runs under panic recovery and the check's context, and the
// diagnostics of one file are capped.

package recipe

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
)

// MaxDiagnostics is the most diagnostics one file reports; the rest are counted in one more.
const MaxDiagnostics = 200

// stage runs one step of the check. A panic becomes an INTERNAL-ERROR diagnostic (logged with its
// stack) and the check goes on; it reports false when the check must stop (the context is done).
func (f *File) stage(ctx context.Context, name string, run func()) (goOn bool) {
	if f.stopIfDone(ctx) {
		return false
	}
	func() {
		defer func() {
			if r := recover(); r != nil {
				slog.Error("recipe check stage panicked", "stage", name, "path", f.Path, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
				f.add(Diagnostic{Severity: SeverityError, Code: CodeInternalError,
					Message: fmt.Sprintf("goose-ls failed while checking this file (%s: %v); the other checks still ran", name, r)})
			}
		}()
		run()
	}()
	return !f.stopIfDone(ctx)
}

// stopIfDone adds the CHECK-STOPPED diagnostic (once) when ctx is done and reports whether it is.
func (f *File) stopIfDone(ctx context.Context) bool {
	if f.stopped {
		return true
	}
	if err := ctx.Err(); err != nil {
		f.addStopped(err)
		return true
	}
	return false
}

func (f *File) addStopped(err error) {
	if f.stopped {
		return
	}
	f.stopped = true
	why := "it was cancelled"
	if errors.Is(err, context.DeadlineExceeded) {
		why = "it took longer than its deadline"
	}
	f.add(Diagnostic{Severity: SeverityWarning, Code: CodeCheckStopped,
		Message: "the check stopped before it finished because " + why + "; other problems may not be listed"})
}

// capDiagnostics keeps the first MaxDiagnostics diagnostics (in order) and one more that counts the rest.
func capDiagnostics(d []Diagnostic) []Diagnostic {
	if len(d) <= MaxDiagnostics {
		return d
	}
	rest := len(d) - MaxDiagnostics
	kept := d[:MaxDiagnostics:MaxDiagnostics]
	at := kept[len(kept)-1].R.End
	return append(kept, Diagnostic{R: Range{Start: at, End: at}, Severity: SeverityInformation, Code: CodeTooManyProblems,
		Message: fmt.Sprintf("%d more problems not shown", rest)})
}
