// The one place where byte offsets and LSP positions meet (UTF-16 by default, UTF-8 when negotiated).

package lsp

import (
	"go.lsp.dev/protocol"

	"github.com/goose-ls/goose-ls/recipe/source"
)

func toPosition(li *source.LineIndex, off int, utf8 bool) protocol.Position {
	var p source.Pos
	if utf8 {
		p = li.BytePos(off)
	} else {
		p = li.UTF16Pos(off)
	}
	return protocol.Position{Line: uint32(p.Line), Character: uint32(p.Col)}
}

func toRange(li *source.LineIndex, r source.Range, utf8 bool) protocol.Range {
	return protocol.Range{Start: toPosition(li, r.Start, utf8), End: toPosition(li, r.End, utf8)}
}

func toOffset(li *source.LineIndex, p protocol.Position, utf8 bool) int {
	if utf8 {
		return li.OffsetFromByteCol(int(p.Line), int(p.Character))
	}
	return li.OffsetFromUTF16(int(p.Line), int(p.Character))
}
