// Retrying provider calls: rate limits and server errors are retried with exponential backoff,
// honouring the vendor's retry-after, as long as nothing of the reply was streamed yet.

package provider

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"time"
)

// RetryPolicy is goose's provider retry policy: 3 retries, 1 s initial delay doubling up to 30 s,
// ±20 % jitter; a provider-supplied delay wins.
type RetryPolicy struct {
	MaxRetries int
	Initial    time.Duration
	Max        time.Duration
}

// DefaultRetry is goose's policy.
var DefaultRetry = RetryPolicy{MaxRetries: 3, Initial: time.Second, Max: 30 * time.Second}

type retrying struct {
	Provider
	policy RetryPolicy
}

// WithRetry wraps p with the retry policy.
func WithRetry(p Provider, policy RetryPolicy) Provider {
	return &retrying{Provider: p, policy: policy}
}

func (r *retrying) Stream(ctx context.Context, req Request, onDelta func(Delta)) (Response, error) {
	delay := r.policy.Initial
	for attempt := 0; ; attempt++ {
		streamed := false
		resp, err := r.Provider.Stream(ctx, req, func(d Delta) {
			streamed = true
			onDelta(d)
		})
		if err == nil || streamed || attempt >= r.policy.MaxRetries || ctx.Err() != nil {
			return resp, err
		}
		kind := KindOf(err)
		if kind != ErrRateLimited && kind != ErrServer {
			return resp, err
		}
		wait := time.Duration(float64(delay) * (0.8 + 0.4*rand.Float64()))
		if pe, ok := err.(*Error); ok && pe.RetryAfter > 0 {
			wait = pe.RetryAfter
		}
		slog.Warn("provider call failed, retrying", "provider", r.Name(), "kind", kind.String(), "attempt", attempt+1, "wait", wait)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return resp, ctx.Err()
		case <-t.C:
		}
		delay = min(delay*2, r.policy.Max)
	}
}
