// Document checks, cached per document generation: one check per text, shared by the diagnostics
// worker and every request on that text, each with a deadline, a panic turned into a diagnostic, and a
// watchdog that ends a check which ignores its deadline.

package lsp

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"runtime/debug"
	"time"

	"go.lsp.dev/protocol"

	"github.com/goose-ls/goose-ls/recipe"
	"github.com/goose-ls/goose-ls/recipe/source"
)

// Diagnostic codes of the language server itself (the recipe's codes are in recipe/diagnostic.go).
const (
	codeInternalError = "LSP-INTERNAL-ERROR"
	codeCheckStopped  = "LSP-CHECK-STOPPED"
	codeOutOfSync     = "LSP-TEXT-OUT-OF-SYNC"
	codeMoreProblems  = "LSP-MORE-PROBLEMS"
)

// maxPublished bounds the diagnostics published for one document; one more says how many were left out.
const maxPublished = 300

// checkRun is the check of one generation of a document. Its fields are written once, before done
// is closed.
type checkRun struct {
	gen     uint64
	version int32
	done    chan struct{}

	file *recipe.File
	// converted holds f.Diags in LSP form, index for index (code actions point into it); published is
	// what the client sees: capped, plus the server's own diagnostics
	converted []protocol.Diagnostic
	published []protocol.Diagnostic
	deps      []string
}

// checkInput is what a check needs, copied under the lock.
type checkInput struct {
	doc   *document
	uri   protocol.DocumentURI
	path  string
	text  []byte
	cache *recipe.Cache
	utf8  bool
	roots []string
	// desktop: the desktopHints setting (DESKTOP-FORM hints)
	desktop bool
}

// ensureCheck returns the check of d's current text, starting it when there is none. s.mu is held.
func (s *Server) ensureCheck(d *document) *checkRun {
	if d.run != nil && d.run.gen == d.gen {
		return d.run
	}
	run := &checkRun{gen: d.gen, version: d.version, done: make(chan struct{})}
	d.run = run
	in := checkInput{doc: d, uri: d.uri, path: d.path, text: d.text, cache: d.cache, utf8: s.utf8, roots: s.roots, desktop: s.settings.DesktopHints}
	timeout := s.checkTimeout()
	go s.runCheck(run, in, timeout)
	return run
}

func (s *Server) checkTimeout() time.Duration {
	if ms := s.settings.CheckTimeoutMs; ms > 0 {
		return time.Duration(ms) * time.Millisecond
	}
	if s.opts.CheckTimeout > 0 {
		return s.opts.CheckTimeout
	}
	return defaultCheckTimeout
}

// checkResult is what the checking goroutine hands back.
type checkResult struct {
	file  *recipe.File
	extra []protocol.Diagnostic // the server's own diagnostics (internal error)
}

// runCheck checks in a goroutine of its own and completes run with the result, or, when the check
// overruns its deadline by a grace period without stopping, with a "check stopped" diagnostic; the
// overrunning check is abandoned (its result is dropped).
func (s *Server) runCheck(run *checkRun, in checkInput, timeout time.Duration) {
	ctx, cancel := context.WithTimeout(s.checkCtx, timeout)
	defer cancel()
	results := make(chan checkResult, 1)
	go func() { results <- s.check(ctx, in) }()
	grace := time.NewTimer(timeout + timeout/4)
	defer grace.Stop()
	var res checkResult
	select {
	case res = <-results:
	case <-grace.C:
		slog.Error("lsp: check overran its deadline and was abandoned", "path", in.path, "deadline", timeout)
		res = checkResult{file: emptyFile(in), extra: []protocol.Diagnostic{serverDiagnostic(codeCheckStopped, protocol.DiagnosticSeverityWarning,
			fmt.Sprintf("goose-ls stopped checking this file: the check took longer than %v; diagnostics are incomplete", timeout))}}
	case <-s.checkCtx.Done():
		res = checkResult{file: emptyFile(in)}
	}
	s.complete(run, in, res)
	s.mu.Lock()
	if in.doc.last == nil || in.doc.last.gen < run.gen {
		in.doc.last = run
	}
	s.mu.Unlock()
	close(run.done)
}

// complete fills run from a check's result; a panic while converting it leaves an internal-error
// diagnostic instead.
func (s *Server) complete(run *checkRun, in checkInput, res checkResult) {
	defer func() {
		if r := recover(); r != nil {
			slog.Error("lsp: panic converting a check's result", "path", in.path, "panic", r, "stack", string(debug.Stack()))
			run.file, run.converted, run.deps = emptyFile(in), nil, nil
			run.published = []protocol.Diagnostic{serverDiagnostic(codeInternalError, protocol.DiagnosticSeverityError,
				fmt.Sprintf("goose-ls failed while checking this file (internal error: %v); please report it", r))}
		}
	}()
	run.file = res.file
	run.converted = convertDiagnostics(res.file, in.uri, in.utf8)
	run.published = capDiagnostics(run.converted, maxPublished)
	run.published = append(run.published, res.extra...)
	run.deps = dependencies(res.file)
}

// check runs recipe.Check; a panic becomes an internal-error diagnostic on the document.
func (s *Server) check(ctx context.Context, in checkInput) (res checkResult) {
	defer func() {
		if r := recover(); r != nil {
			slog.Error("lsp: check panic", "path", in.path, "panic", r, "stack", string(debug.Stack()))
			res = checkResult{file: emptyFile(in), extra: []protocol.Diagnostic{serverDiagnostic(codeInternalError, protocol.DiagnosticSeverityError,
				fmt.Sprintf("goose-ls failed while checking this file (internal error: %v); please report it", r))}}
		}
	}()
	if s.opts.CheckHook != nil {
		s.opts.CheckHook(ctx, in.path)
	}
	roots := in.roots
	if len(roots) == 0 {
		roots = []string{filepath.Dir(in.path)}
	}
	f := recipe.Check(in.path, in.text, &recipe.Options{FS: overlayFS{s}, Cache: in.cache, Context: ctx, Roots: roots, DesktopHints: in.desktop})
	return checkResult{file: f}
}

// emptyFile stands for a check that gave no result, so handlers still have the text and its lines.
func emptyFile(in checkInput) *recipe.File {
	return &recipe.File{Path: in.path, Text: in.text, Lines: source.NewLineIndex(in.text)}
}

// serverDiagnostic is one of the server's own diagnostics, on the first character of the file.
func serverDiagnostic(code string, sev protocol.DiagnosticSeverity, msg string) protocol.Diagnostic {
	return protocol.Diagnostic{Severity: sev, Code: code, Source: "goose-ls", Message: msg}
}

// capDiagnostics keeps at most max diagnostics, errors first (an unset severity counts as one), in their original order, and adds one
// that counts the rest.
func capDiagnostics(ds []protocol.Diagnostic, max int) []protocol.Diagnostic {
	if len(ds) <= max {
		return ds
	}
	keep := make([]bool, len(ds))
	n := 0
	for sev := protocol.DiagnosticSeverity(0); sev <= protocol.DiagnosticSeverityHint && n < max; sev++ {
		for i := range ds {
			if n < max && ds[i].Severity == sev {
				keep[i], n = true, n+1
			}
		}
	}
	out := make([]protocol.Diagnostic, 0, max+1)
	for i, k := range keep {
		if k {
			out = append(out, ds[i])
		}
	}
	return append(out, serverDiagnostic(codeMoreProblems, protocol.DiagnosticSeverityInformation,
		fmt.Sprintf("%d more problems not shown", len(ds)-n)))
}
