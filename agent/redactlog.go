// A log/slog handler that redacts secrets from messages and attribute values before they are written.

package agent

import (
	"context"
	"log/slog"
)

// RedactingHandler wraps h so every record's message and attribute values (strings, errors, anything
// printed with fmt, in groups too) pass through red first.
func RedactingHandler(h slog.Handler, red *Redactor) slog.Handler {
	return &redactingHandler{next: h, red: red}
}

type redactingHandler struct {
	next slog.Handler
	red  *Redactor
}

func (h *redactingHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.next.Enabled(ctx, l)
}

func (h *redactingHandler) Handle(ctx context.Context, rec slog.Record) error {
	out := slog.NewRecord(rec.Time, rec.Level, h.red.Redact(rec.Message), rec.PC)
	rec.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(h.redactAttr(a))
		return true
	})
	return h.next.Handle(ctx, out)
}

func (h *redactingHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	red := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		red[i] = h.redactAttr(a)
	}
	return &redactingHandler{next: h.next.WithAttrs(red), red: h.red}
}

func (h *redactingHandler) WithGroup(name string) slog.Handler {
	return &redactingHandler{next: h.next.WithGroup(name), red: h.red}
}

// redactAttr redacts one attribute's value; non-text kinds (numbers, times, durations) pass as they are.
func (h *redactingHandler) redactAttr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, h.red.Redact(v.String()))
	case slog.KindGroup:
		group := v.Group()
		red := make([]slog.Attr, len(group))
		for i, g := range group {
			red[i] = h.redactAttr(g)
		}
		return slog.Attr{Key: a.Key, Value: slog.GroupValue(red...)}
	case slog.KindAny:
		if err, ok := v.Any().(error); ok {
			return slog.String(a.Key, h.red.Redact(err.Error()))
		}
		// printed the way the text and JSON handlers would print it, then redacted
		return slog.String(a.Key, h.red.Redact(v.String()))
	}
	return slog.Attr{Key: a.Key, Value: v}
}
