// Reporters for `goose-ls check`: text (path:line:col), LSP-shaped JSON and SARIF 2.1.0.

package main

import (
	"github.com/goose-ls/goose-ls/internal/version"

	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/goose-ls/goose-ls/recipe"
	"github.com/goose-ls/goose-ls/recipe/source"
)

type jsonPos struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

type jsonRange struct {
	Start jsonPos `json:"start"`
	End   jsonPos `json:"end"`
}

type jsonDiag struct {
	Range              jsonRange     `json:"range"`
	Severity           string        `json:"severity"`
	Code               string        `json:"code"`
	Message            string        `json:"message"`
	RelatedInformation []jsonRelated `json:"relatedInformation,omitempty"`
}

// jsonRelated is LSP's DiagnosticRelatedInformation with the file's path for its URI.
type jsonRelated struct {
	Location struct {
		Path  string    `json:"path"`
		Range jsonRange `json:"range"`
	} `json:"location"`
	Message string `json:"message"`
}

type jsonFile struct {
	Path        string     `json:"path"`
	Diagnostics []jsonDiag `json:"diagnostics"`
}

func lspRange(li *source.LineIndex, r recipe.Range) jsonRange {
	s, e := li.UTF16Pos(r.Start), li.UTF16Pos(r.End)
	return jsonRange{Start: jsonPos{s.Line, s.Col}, End: jsonPos{e.Line, e.Col}}
}

func writeJSON(w io.Writer, results []checkedFile) error {
	out := struct {
		Files []jsonFile `json:"files"`
	}{Files: []jsonFile{}}
	for _, r := range results {
		jf := jsonFile{Path: r.Path, Diagnostics: []jsonDiag{}}
		for _, d := range r.File.Diags {
			jd := jsonDiag{Range: lspRange(r.File.Lines, d.R), Severity: d.Severity.String(), Code: d.Code, Message: d.Message}
			for _, rel := range sameFileRelated(d) {
				var jr jsonRelated
				jr.Location.Path, jr.Location.Range, jr.Message = r.Path, lspRange(r.File.Lines, rel.R), rel.Message
				jd.RelatedInformation = append(jd.RelatedInformation, jr)
			}
			jf.Diagnostics = append(jf.Diagnostics, jd)
		}
		out.Files = append(out.Files, jf)
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// sameFileRelated are d's related places in its own file (the only ones a check reports; a place in
// another file would need that file's lines).
func sameFileRelated(d recipe.Diagnostic) []recipe.Related {
	var out []recipe.Related
	for _, r := range d.Related {
		if r.Path == "" {
			out = append(out, r)
		}
	}
	return out
}

func writeText(w io.Writer, results []checkedFile) error {
	errs, warns, files := 0, 0, 0
	for _, r := range results {
		files++
		for _, d := range r.File.Diags {
			p := r.File.Lines.RunePos(d.R.Start)
			msg := strings.ReplaceAll(strings.TrimSpace(d.Message), "\n", " ")
			if _, err := fmt.Fprintf(w, "%s:%d:%d: %s: %s [%s]\n", r.Path, p.Line+1, p.Col+1, d.Severity, msg, d.Code); err != nil {
				return err
			}
			switch d.Severity {
			case recipe.SeverityError:
				errs++
			case recipe.SeverityWarning:
				warns++
			}
		}
	}
	_, err := fmt.Fprintf(w, "%d files checked: %d errors, %d warnings\n", files, errs, warns)
	return err
}

// SARIF 2.1.0, as GitHub code scanning reads it.
func writeSARIF(w io.Writer, results []checkedFile) error {
	type region struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn"`
		EndLine     int `json:"endLine"`
		EndColumn   int `json:"endColumn"`
	}
	type location struct {
		// ID numbers a related location within its result (SARIF wants one there; none in locations)
		ID               *int `json:"id,omitempty"`
		PhysicalLocation struct {
			ArtifactLocation struct {
				URI string `json:"uri"`
			} `json:"artifactLocation"`
			Region region `json:"region"`
		} `json:"physicalLocation"`
		Message map[string]string `json:"message,omitempty"`
	}
	type result struct {
		RuleID           string            `json:"ruleId"`
		Level            string            `json:"level"`
		Message          map[string]string `json:"message"`
		Locations        []location        `json:"locations"`
		RelatedLocations []location        `json:"relatedLocations,omitempty"`
	}
	type rule struct {
		ID               string            `json:"id"`
		ShortDescription map[string]string `json:"shortDescription"`
		HelpURI          string            `json:"helpUri"`
	}
	var res []result
	ruleSeen := map[string]bool{}
	var rules []rule
	for _, r := range results {
		at := func(rg recipe.Range) location {
			s, e := r.File.Lines.UTF16Pos(rg.Start), r.File.Lines.UTF16Pos(rg.End)
			var loc location
			loc.PhysicalLocation.ArtifactLocation.URI = filepath.ToSlash(r.Path)
			loc.PhysicalLocation.Region = region{s.Line + 1, s.Col + 1, e.Line + 1, e.Col + 1}
			return loc
		}
		for _, d := range r.File.Diags {
			loc := at(d.R)
			level := "note"
			switch d.Severity {
			case recipe.SeverityError:
				level = "error"
			case recipe.SeverityWarning:
				level = "warning"
			}
			rs := result{RuleID: d.Code, Level: level, Message: map[string]string{"text": d.Message}, Locations: []location{loc}}
			for i, rel := range sameFileRelated(d) {
				rl := at(rel.R)
				rl.ID, rl.Message = &i, map[string]string{"text": rel.Message}
				rs.RelatedLocations = append(rs.RelatedLocations, rl)
			}
			res = append(res, rs)
			if !ruleSeen[d.Code] {
				ruleSeen[d.Code] = true
				rules = append(rules, rule{ID: d.Code, ShortDescription: map[string]string{"text": d.Code},
					HelpURI: "https://github.com/goose-ls/goose-ls/blob/main/docs/diagnostics.md#" + strings.ToLower(d.Code)})
			}
		}
	}
	if res == nil {
		res = []result{}
	}
	if rules == nil {
		rules = []rule{}
	}
	doc := map[string]any{
		"$schema": "https://json.schemastore.org/sarif-2.1.0.json",
		"version": "2.1.0",
		"runs": []any{map[string]any{
			"tool": map[string]any{"driver": map[string]any{
				"name": "goose-ls", "version": version.Build().Version, "informationUri": "https://github.com/goose-ls/goose-ls", "rules": rules,
			}},
			"columnKind": "utf16CodeUnits",
			"results":    res,
		}},
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}
