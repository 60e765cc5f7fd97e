// goose's rules for inline <think> blocks, case by case, whole and chunk by chunk.
package openai

import (
	"strings"
	"testing"
)

func TestThinkBlocksSplitAsGoose(t *testing.T) {
	cases := []struct {
		chunks            []string
		content, thinking string
	}{
		{[]string{"<think>x</think>y"}, "y", "x"},
		{[]string{"<THINK>x</think>y"}, "y", "x"},
		{[]string{"<think>a</think>b<think>c</think>d"}, "bd", "ac"},
		{[]string{"plain content"}, "plain content", ""},
		{[]string{`<think class="x">a</think>b`}, "b", "a"},
		{[]string{`<think data="a>b"/>Visible`}, "Visible", ""},
		{[]string{`<think data='a>b'/>Visible`}, "Visible", ""},
		{[]string{`<think data="a>b">Hidden</think>Visible`}, "Visible", "Hidden"},
		{[]string{"<thinking>a</thinking>b"}, "b", "a"},
		{[]string{"<thi", "nk>x</thi", "nk>y"}, "y", "x"},
		{[]string{"<table>"}, "<table>", ""},
		{[]string{"<think>unfinished"}, "", "unfinished"},
		{[]string{"<thinking-mode>hello</thinking-mode>"}, "<thinking-mode>hello</thinking-mode>", ""},
		{[]string{"<thinking123>payload</thinking123>"}, "<thinking123>payload</thinking123>", ""},
		{[]string{"<thinker>note</thinker>"}, "<thinker>note</thinker>", ""},
		{[]string{"before <think/> after"}, "before  after", ""},
		{[]string{"before <think /> after"}, "before  after", ""},
		{[]string{`before <think data-source="x"/> after`}, "before  after", ""},
		{[]string{"<think/>visible chunk 1", "visible chunk 2"}, "visible chunk 1visible chunk 2", ""},
		{[]string{"before <think/", "> after"}, "before  after", ""},
		{[]string{"head <think ", "/> tail"}, "head  tail", ""},
		{[]string{`<think data="a>b`, `"/>Visible`}, "Visible", ""},
		{[]string{"before <think>hidden1 <think/> hidden2</think>visible"}, "before visible", "hidden1  hidden2"},
		{[]string{"a </think> b"}, "a </think> b", ""}, // a close tag outside a block is text
		{[]string{"<think>a<think>b</think>c</think>d"}, "d", "abc"},
		{[]string{"x <", "think>y</think>z"}, "x <think>y</think>z", ""}, // a lone "<" is not held back
		{[]string{"<think>a<", "/think>b"}, "", "a</think>b"},            // not even one that closes a block (goose's regex)
	}
	for _, c := range cases {
		var f thinkFilter
		var content, thinking strings.Builder
		for _, chunk := range c.chunks {
			ct, th := f.push(chunk)
			content.WriteString(ct)
			thinking.WriteString(th)
		}
		ct, th := f.finish()
		content.WriteString(ct)
		thinking.WriteString(th)
		if content.String() != c.content || thinking.String() != c.thinking {
			t.Errorf("%q: content %q thinking %q, want %q %q", c.chunks, content.String(), thinking.String(), c.content, c.thinking)
		}
		if len(c.chunks) == 1 {
			if ct, th := splitThinkBlocks(c.chunks[0]); ct != c.content || th != c.thinking {
				t.Errorf("splitThinkBlocks(%q) = %q %q", c.chunks[0], ct, th)
			}
		}
	}
}

func TestGenerationPromptOpensABlock(t *testing.T) {
	var f thinkFilter
	f.push("<|assistant|><think>\n")
	ct, th := f.push("hidden reasoning</think>visible answer")
	c2, t2 := f.finish()
	if ct+c2 != "visible answer" || th+t2 != "hidden reasoning" {
		t.Errorf("%q %q", ct+c2, th+t2)
	}
}

// A would-be tag that never ends is held back only so far: a stream of small chunks after `<think "`
// stays linear, and the text comes through.
func TestHeldBackTagIsBounded(t *testing.T) {
	var f thinkFilter
	var content strings.Builder
	c, _ := f.push(`<think "`)
	content.WriteString(c)
	chunk := strings.Repeat("x", 10)
	for i := 0; i < 200_000; i++ { // 2 MB in 10-byte chunks
		c, _ := f.push(chunk)
		content.WriteString(c)
	}
	c, _ = f.finish()
	content.WriteString(c)
	if content.Len() != len(`<think "`)+2_000_000 {
		t.Errorf("content %d bytes", content.Len())
	}
	if len(f.buf) != 0 {
		t.Errorf("still held: %d bytes", len(f.buf))
	}
}
