// Typed provider errors: what the loop and the retry policy need to know about a failed call.

package provider

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// ErrorKind classifies a provider failure.
type ErrorKind int

// The kinds of provider failure.
const (
	ErrOther         ErrorKind = iota
	ErrRateLimited             // 429: retried after RetryAfter
	ErrContextLength           // the conversation no longer fits: compact and go on
	ErrAuth                    // 401/403: a key is missing or wrong
	ErrServer                  // 5xx: retried
	ErrRequest                 // 4xx other than the above
)

func (k ErrorKind) String() string {
	switch k {
	case ErrRateLimited:
		return "rate limited"
	case ErrContextLength:
		return "context length exceeded"
	case ErrAuth:
		return "authentication failed"
	case ErrServer:
		return "server error"
	case ErrRequest:
		return "request error"
	}
	return "error"
}

// Error is a classified provider failure.
type Error struct {
	Provider   string
	Kind       ErrorKind
	Status     int
	RetryAfter time.Duration
	Message    string
}

func (e *Error) Error() string {
	if e.Status != 0 {
		return fmt.Sprintf("%s: %s (HTTP %d): %s", e.Provider, e.Kind, e.Status, e.Message)
	}
	return fmt.Sprintf("%s: %s: %s", e.Provider, e.Kind, e.Message)
}

// KindOf returns the kind of err (ErrOther for unclassified errors).
func KindOf(err error) ErrorKind {
	var pe *Error
	if errors.As(err, &pe) {
		return pe.Kind
	}
	return ErrOther
}

// contextMarkers are the phrases vendors use for an over-long conversation.
var contextMarkers = []string{
	"context_length_exceeded", "context length", "maximum context", "too many tokens",
	"prompt is too long", "input is too long", "exceeds the context window", "reduce the length",
}

// Classify builds an Error from an HTTP status, the response (for its retry headers; may be nil) and
// the vendor's message.
func Classify(provider string, status int, resp *http.Response, message string) *Error {
	var header http.Header
	if resp != nil {
		header = resp.Header
	}
	e := &Error{Provider: provider, Status: status, Message: strings.TrimSpace(message)}
	lower := strings.ToLower(message)
	switch {
	case status == http.StatusTooManyRequests:
		e.Kind = ErrRateLimited
		e.RetryAfter = RetryAfter(header)
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		e.Kind = ErrAuth
	case containsAny(lower, contextMarkers) || status == http.StatusRequestEntityTooLarge:
		e.Kind = ErrContextLength
	case status >= 500:
		e.Kind = ErrServer
		e.RetryAfter = RetryAfter(header)
	case status >= 400:
		e.Kind = ErrRequest
	}
	return e
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// RetryAfter reads retry-after-ms, retry-after (seconds or an HTTP date).
func RetryAfter(h http.Header) time.Duration {
	if h == nil {
		return 0
	}
	if ms, err := strconv.ParseFloat(h.Get("retry-after-ms"), 64); err == nil && ms > 0 {
		return time.Duration(ms * float64(time.Millisecond))
	}
	v := h.Get("retry-after")
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s > 0 {
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := time.Until(t); d > 0 {
			return d
		}
	}
	return 0
}
