// Splitting large block mappings: goccy/go-yaml parses each further key of a block mapping by recursing
// (parser.parseMap) and copies the tail of the entries at every level, so n keys cost n² time and n
// stack frames. A mapping with more than splitEntries keys keeps its first splitEntries entries in the
// text goccy parses (the rest becomes empty lines, so every later line keeps its number), and each
// further run of splitEntries entries is parsed on its own, as a standalone indented mapping whose
// lines are counted from the run's first line. The builder appends those pairs to the mapping.

package yamltree

import (
	"slices"
	"sort"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/goose-ls/goose-ls/recipe/source"
)

// splitEntries is the largest run of entries goccy parses in one piece.
const splitEntries = 100

// split is one large block mapping: its first key's line, the first line of each run parsed on its
// own, and the line after the mapping.
type split struct {
	first  int
	chunks []int
	end    int
}

// noteSplit records a closed block mapping that needs splitting; end is the line after it.
func (s *shapeScanner) noteSplit(l blockLevel, end int) {
	if l.seq || l.noSplit || len(l.keys) <= s.splitEntries {
		return
	}
	sp := split{first: l.keys[0], end: end}
	for i := s.splitEntries; i < len(l.keys); i += s.splitEntries {
		sp.chunks = append(sp.chunks, l.keys[i])
	}
	s.splits = append(s.splits, sp)
}

// sortedSplits orders splits by the first line they take out of their enclosing text.
func (s *shapeScanner) sortedSplits() []split {
	slices.SortFunc(s.splits, func(a, b split) int { return a.chunks[0] - b.chunks[0] })
	return s.splits
}

// segments are goccy's parses of one text: the main one and one per run of a split mapping.
type segments struct {
	main   *ast.File
	chunks map[int]*ast.File // by the run's first line
	used   []split           // the splits applied (well nested ones)
}

// chunkEnd is the line after the run of sp starting at chunks[i].
func (sp split) chunkEnd(i int) int {
	if i+1 < len(sp.chunks) {
		return sp.chunks[i+1]
	}
	return sp.end
}

// parseSegments parses src (whose lines are those of the original text) as the main text plus one
// standalone text per run of every split mapping. Each line is parsed once outside empty lines.
func parseSegments(src []byte, splits []split) (*segments, error) {
	if len(splits) == 0 { // the common case: one parse of the whole text (goccy copies it to a string)
		f, err := parser.ParseBytes(normalizeBreaks(src), 0, parser.AllowDuplicateMapKey())
		if err != nil {
			return nil, lineShifted{err: err, base: 0}
		}
		return &segments{main: f}, nil // chunks stays nil: only read
	}
	srcLi := source.NewLineIndex(src)
	segs := &segments{chunks: map[int]*ast.File{}}
	idx := 0
	var parseRange func(a, b int) (*ast.File, error)
	parseRange = func(a, b int) (*ast.File, error) {
		var text []byte
		prev := srcLi.LineStart(a)
		for idx < len(splits) && splits[idx].chunks[0] < b {
			sp := splits[idx]
			idx++
			if sp.chunks[0] < a || sp.end > b {
				continue // not well nested (an invalid shape); goccy reports what it finds
			}
			segs.used = append(segs.used, sp)
			cut := srcLi.LineStart(sp.chunks[0])
			text = append(text, src[prev:cut]...)
			for range sp.end - sp.chunks[0] {
				text = append(text, '\n')
			}
			prev = srcLi.LineStart(sp.end)
			for i, c := range sp.chunks {
				f, err := parseRange(c, sp.chunkEnd(i))
				if err != nil {
					return nil, err
				}
				segs.chunks[c] = f
			}
		}
		text = append(text, src[prev:srcLi.LineStart(b)]...)
		f, err := parser.ParseBytes(normalizeBreaks(text), 0, parser.AllowDuplicateMapKey())
		if err != nil {
			return nil, lineShifted{err: err, base: a}
		}
		return f, nil
	}
	main, err := parseRange(0, srcLi.LineCount())
	if err != nil {
		return nil, err
	}
	segs.main = main
	return segs, nil
}

// lineShifted is a goccy error from a text whose first line is line base of the original.
type lineShifted struct {
	err  error
	base int
}

func (e lineShifted) Error() string { return e.err.Error() }
func (e lineShifted) Unwrap() error { return e.err }

// splitMap appends the pairs of the runs parsed on their own to m, the block mapping whose first key is
// on line first.
func (b *builder) splitMap(m *Node, first int) {
	sp, ok := b.splits[first]
	if !ok {
		return
	}
	delete(b.splits, first)
	base := b.lineBase
	defer func() { b.lineBase = base }()
	for _, c := range sp.chunks {
		f := b.segs.chunks[c]
		if f == nil || len(f.Docs) == 0 || f.Docs[0].Body == nil {
			continue
		}
		b.lineBase = c
		switch body := f.Docs[0].Body.(type) {
		case *ast.MappingNode:
			for _, mv := range body.Values {
				m.Pairs = append(m.Pairs, b.pair(mv))
			}
		case *ast.MappingValueNode:
			m.Pairs = append(m.Pairs, b.pair(body))
		}
	}
}

// boundaryAfter is the first place after off where a separately parsed text starts or ends: a token's
// text never runs past it.
func (b *builder) boundaryAfter(off int) int {
	i := sort.SearchInts(b.boundaries, off+1)
	if i < len(b.boundaries) {
		return b.boundaries[i]
	}
	return len(b.li.Text())
}

// useSplits indexes the applied splits for the builder.
func (b *builder) useSplits(segs *segments) {
	b.segs = segs
	if len(segs.used) == 0 {
		return
	}
	b.splits = make(map[int]split, len(segs.used))
	for _, sp := range segs.used {
		b.splits[sp.first] = sp
		for _, c := range sp.chunks {
			b.boundaries = append(b.boundaries, b.li.LineStart(c))
		}
		b.boundaries = append(b.boundaries, b.li.LineStart(sp.end))
	}
	slices.Sort(b.boundaries)
}
