// Template spans for highlighting: delimiters, statement keywords, variables, filters, comments.

package recipe

import (
	"sort"

	"github.com/goose-ls/goose-ls/recipe/template"
)

// SpanKind classifies a template span.
type SpanKind uint8

const (
	SpanVariable SpanKind = iota
	SpanFilter
	SpanKeyword
	SpanComment
	SpanDelimiter
)

// Span is a highlighted range of template syntax.
type Span struct {
	R    Range
	Kind SpanKind
}

// TemplateSpans returns the template syntax spans in file order (none when the template did not parse).
func (f *File) TemplateSpans() []Span {
	if f.Template == nil {
		return nil
	}
	var out []Span
	for _, t := range f.Template.Tags {
		r := f.fromPre(t.R)
		if r.End <= r.Start {
			continue
		}
		if t.Kind == template.TagComment {
			out = append(out, Span{R: r, Kind: SpanComment})
			continue
		}
		open, close := 2, 2
		if r.Start+2 < len(f.Text) && (f.Text[r.Start+2] == '-' || f.Text[r.Start+2] == '+') {
			open = 3
		}
		if r.End-3 >= r.Start && (f.Text[r.End-3] == '-' || f.Text[r.End-3] == '+') {
			close = 3
		}
		if r.End-r.Start < open+close {
			continue
		}
		out = append(out, Span{R: Range{Start: r.Start, End: r.Start + open}, Kind: SpanDelimiter},
			Span{R: Range{Start: r.End - close, End: r.End}, Kind: SpanDelimiter})
		if t.Keyword != "" {
			i := r.Start + open
			for i < r.End && (f.Text[i] == ' ' || f.Text[i] == '\t') {
				i++
			}
			if i+len(t.Keyword) <= r.End && string(f.Text[i:i+len(t.Keyword)]) == t.Keyword {
				out = append(out, Span{R: Range{Start: i, End: i + len(t.Keyword)}, Kind: SpanKeyword})
			}
		}
	}
	if f.Analysis != nil {
		for _, uses := range [][]template.VarUse{f.Analysis.Uses, f.Analysis.Uncounted} {
			for _, u := range uses {
				out = append(out, Span{R: f.fromPre(u.RootR), Kind: SpanVariable})
			}
		}
		for _, fl := range f.Analysis.Filters {
			out = append(out, Span{R: f.fromPre(fl.R), Kind: SpanFilter})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].R.Start < out[j].R.Start })
	return out
}
