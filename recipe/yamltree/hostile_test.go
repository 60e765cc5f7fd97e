// Hostile YAML: nesting past serde_yaml's recursion limit, alias bombs and document floods, each at
// several sizes, end in an error at the right offset (or a bounded result) with bounded allocation.

package yamltree

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/recipe/source"
)

// billionLaughs is the classic alias bomb with the given fan-out and levels (fan^levels leaves).
func billionLaughs(fan, levels int) string {
	var sb strings.Builder
	sb.WriteString("l0: &l0 \"lol\"\n")
	for l := 1; l <= levels; l++ {
		items := make([]string, fan)
		for i := range items {
			items[i] = fmt.Sprintf("*l%d", l-1)
		}
		fmt.Fprintf(&sb, "l%d: &l%d [%s]\n", l, l, strings.Join(items, ", "))
	}
	return sb.String()
}

// laughsCrossing models serde_yaml's count for billionLaughs: the document has 4 + levels·(3+fan)
// events (the top map, l0's key and value, per level a key, a sequence and fan aliases); an alias of
// level k replays 1 + fan·(replays of level k-1). It returns the level and the index on that level's
// line of the alias whose replays pass 100 per event.
func laughsCrossing(fan, levels int) (level, nth int) {
	limit := 100 * (4 + levels*(3+fan))
	total, per := 0, 0
	for l := 1; l <= levels; l++ {
		per = 1 + fan*per
		for i := 1; i <= fan; i++ {
			if total += per; total > limit {
				return l, i
			}
		}
	}
	return 0, 0
}

func stair(n int, line func(i int) string) string {
	var sb strings.Builder
	for i := range n {
		sb.WriteString(strings.Repeat(" ", i))
		sb.WriteString(line(i))
	}
	sb.WriteString(strings.Repeat(" ", n) + "leaf\n")
	return sb.String()
}

type hostileCase struct {
	name string
	src  string
	msg  string // "" when the text must parse
	// at is the expected error offset: the index of the at-th occurrence (1-based) of needle
	needle string
	at     int
}

func hostileCases() []hostileCase {
	var cases []hostileCase
	for _, n := range []int{128, 1000, 100_000} {
		// the top-level map is level 1, so the 128th `[` is level 129
		cases = append(cases,
			hostileCase{fmt.Sprintf("flow-seq-%d", n), "k: " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n", msgRecursionLimit, "[", 128},
			hostileCase{fmt.Sprintf("flow-map-%d", n), "k: " + strings.Repeat("{a: ", n) + "1" + strings.Repeat("}", n) + "\n", msgRecursionLimit, "{", 128},
		)
		if n > 128 {
			cases = append(cases,
				hostileCase{fmt.Sprintf("flow-unclosed-%d", n), strings.Repeat("[", n), msgRecursionLimit, "[", 129},
				hostileCase{fmt.Sprintf("dash-line-%d", n), strings.Repeat("- ", n) + "x\n", msgRecursionLimit, "-", 129},
			)
		}
	}
	for _, n := range []int{129, 1000, 1400} { // 1,400 levels of indentation is about 1 MiB
		cases = append(cases,
			hostileCase{fmt.Sprintf("block-map-%d", n), stair(n, func(i int) string { return fmt.Sprintf("k%d:\n", i) }), msgRecursionLimit, "k128:", 1},
			hostileCase{fmt.Sprintf("block-seq-%d", n), stair(n, func(int) string { return "-\n" }), msgRecursionLimit, "-", 129},
		)
	}
	cases = append(cases,
		// a line less indented than a block scalar's content ends it; libyaml's parser refuses the flow
		// collection there (no key) before the deserializer counts its openers
		hostileCase{"block-scalar-dedent-flow", "k: |\n    a\n  " + strings.Repeat("[", 1000) + "\n", "did not find expected key", "[", 1},
		hostileCase{"flow-seq-at-limit", "k: " + strings.Repeat("[", 127) + strings.Repeat("]", 127) + "\n", "", "", 0},
		hostileCase{"block-map-at-limit", stair(128, func(i int) string { return fmt.Sprintf("k%d:\n", i) }), "", "", 0},
		hostileCase{"brackets-in-scalars", "a: x[[[[" + strings.Repeat("[", 300) + "\nb: '" + strings.Repeat("{", 300) + "'\nc: |\n  " + strings.Repeat("[", 300) + "\n", "", "", 0},
		// an alias replays its anchor's depth where it is used: 100 + 29 + the top-level map > 128
		hostileCase{"alias-depth", "a: &a " + strings.Repeat("[", 100) + strings.Repeat("]", 100) + "\nb: " + strings.Repeat("[", 28) + "*a" + strings.Repeat("]", 28) + "\n", msgRecursionLimit, "*a", 1},
		hostileCase{"alias-depth-at-limit", "a: &a " + strings.Repeat("[", 100) + strings.Repeat("]", 100) + "\nb: " + strings.Repeat("[", 27) + "*a" + strings.Repeat("]", 27) + "\n", "", "", 0},
	)
	for _, lv := range []int{6, 9, 30} {
		level, nth := laughsCrossing(10, lv)
		cases = append(cases, hostileCase{fmt.Sprintf("billion-laughs-%d", lv), billionLaughs(10, lv), msgRepetitionLimit, fmt.Sprintf("*l%d", level-1), nth})
	}
	cases = append(cases, hostileCase{"aliases-within-bound", billionLaughs(10, 3), "", "", 0})
	// shapes goccy/go-yaml handles in quadratic time on its own: they parse, within the same budget
	for _, s := range growthShapes {
		for _, n := range []int{5_000, 50_000} {
			cases = append(cases, hostileCase{fmt.Sprintf("%s-%d", s.name, n), s.build(n), "", "", 0})
		}
	}
	var nested strings.Builder
	nested.WriteString("outer:\n  inner:\n")
	for i := range 50_000 {
		fmt.Fprintf(&nested, "    k%d: v\n", i)
	}
	cases = append(cases, hostileCase{"nested-map-50000-keys", nested.String(), "", "", 0})
	return cases
}

// allocPerByte bounds the bytes allocated per byte of text for any input.
const allocPerByte = 1024

func nthIndex(s, needle string, n int) int {
	off := -1
	for range n {
		i := strings.Index(s[off+1:], needle)
		if i < 0 {
			return -1
		}
		off += 1 + i
	}
	return off
}

func TestHostileYAML(t *testing.T) {
	for _, c := range hostileCases() {
		t.Run(c.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			doc, err := Parse(source.NewLineIndex([]byte(c.src)))
			runtime.ReadMemStats(&after)
			// goccy allocates 160 (keys) to 650 (`0,0,…`, `[[[…`) bytes per byte of text: a linear budget
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(allocPerByte*len(c.src)+4<<20) {
				t.Errorf("allocated %d bytes for %d bytes of text", alloc, len(c.src))
			}
			if c.msg == "" {
				if err != nil || doc.Root == nil {
					t.Fatalf("want a tree, got %v", err)
				}
				return
			}
			var ye *Error
			if !errors.As(err, &ye) {
				t.Fatalf("want *Error %q, got %v", c.msg, err)
			}
			want := nthIndex(c.src, c.needle, c.at)
			if ye.Msg != c.msg || ye.Offset != want {
				t.Errorf("got %q at %d, want %q at %d", ye.Msg, ye.Offset, c.msg, want)
			}
		})
	}
}

// TestAllocationGrowth: every growth shape allocates in proportion to its size (8× the text, at most
// 10× the bytes allocated); a quadratic path would allocate 64×.
func TestAllocationGrowth(t *testing.T) {
	measure := func(text []byte) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if _, err := Parse(source.NewLineIndex(text)); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	for _, s := range growthShapes {
		small, large := measure([]byte(s.build(2_000))), measure([]byte(s.build(16_000)))
		if large > 10*small {
			t.Errorf("%s: %d bytes allocated at 1×, %d at 8×", s.name, small, large)
		}
	}
}

// TestManyDocuments: goose refuses a second document whatever it holds, so only the first reaches goccy
// and the second's marker is reported.
func TestManyDocuments(t *testing.T) {
	for _, n := range []int{2, 1000, 50_000} {
		var sb strings.Builder
		sb.WriteString("# c\n---\nk: 0\n")
		for i := 1; i < n; i++ {
			fmt.Fprintf(&sb, "---\nk: %d\n", i)
		}
		src := sb.String()
		doc, err := Parse(source.NewLineIndex([]byte(src)))
		if err != nil {
			t.Fatal(err)
		}
		second := nthIndex(src, "---", 2)
		if doc.Extra == nil || *doc.Extra != (source.Range{Start: second, End: second + 3}) {
			t.Errorf("n=%d: Extra = %v, want [%d,%d)", n, doc.Extra, second, second+3)
		}
		if v := doc.Root.Get("k"); v == nil || v.Value != "0" {
			t.Errorf("n=%d: first document not parsed: %+v", n, doc.Root)
		}
	}
}

// TestDocumentEndMarkers: after a `...` document end, libyaml's parser wants `---` (or a directive)
// before another document: content alone there is "did not find expected <document start>" at its
// first token (python3-yaml's CSafeLoader: line 4, column 1), found by the shape pass without parsing
// the rest; with `---` the second document is cut as usual (its start reported at the `---`).
func TestDocumentEndMarkers(t *testing.T) {
	for _, n := range []int{2, 50_000} {
		for _, marker := range []string{"", "---\n"} {
			var sb strings.Builder
			for i := range n {
				fmt.Fprintf(&sb, "%sk%d: %d\n...\n# c\n", marker, i, i)
			}
			src := strings.TrimPrefix(sb.String(), marker)
			doc, err := Parse(source.NewLineIndex([]byte(src)))
			if marker == "" {
				var ye *Error
				if !errors.As(err, &ye) || ye.Msg != "did not find expected <document start>" || ye.Offset != strings.Index(src, "k1") {
					t.Errorf("n=%d: err = %v, want libyaml's document start error at k1", n, err)
				}
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			second := strings.Index(src, "---")
			if doc.Extra == nil || doc.Extra.Start != second {
				t.Errorf("n=%d: Extra = %v, want it at %d", n, doc.Extra, second)
			}
		}
	}
}
