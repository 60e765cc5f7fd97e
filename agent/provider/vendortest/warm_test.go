// Warming a provider (provider.Warm, done while a run starts) sends nothing: the first request is still
// the run's, and it goes out as it would have without the warm-up, even while warming runs beside it.

package vendortest

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
)

func TestWarmSendsNothing(t *testing.T) {
	for _, v := range allVendors {
		t.Run(v.Name, func(t *testing.T) {
			srv := v.Serve(wiretest.Replies(wiretest.Reply{Text: "done"}))
			defer srv.Close()
			p := provider.WithRetry(v.Provider(srv.URL), provider.DefaultRetry)
			if _, ok := p.(provider.Warmer); !ok {
				t.Fatal("the retrying provider does not pass Warm on")
			}
			var wg sync.WaitGroup
			for range 3 { // concurrently with each other and with the request, as at start-up
				wg.Add(1)
				go func() { defer wg.Done(); provider.Warm(p) }()
			}
			resp, err := p.Stream(context.Background(), provider.Request{
				Model: "m", System: "be brief", Tools: []provider.Tool{echoTool},
				Messages: []provider.Message{{Role: provider.User, Text: "say hi"}},
			}, func(provider.Delta) {})
			wg.Wait()
			if err != nil || resp.Message.Text != "done" {
				t.Fatalf("%v: %+v", err, resp)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("the server saw %d requests, want the run's one", len(reqs))
			}
			body, _ := json.Marshal(reqs[0])
			for _, leaked := range []string{`"warm"`, "assistant", "result"} { // provider.WarmRequest's content
				if strings.Contains(string(body), leaked) {
					t.Errorf("the request carries the warm-up's %s: %s", leaked, body)
				}
			}
		})
	}
}

// Warming opens the provider's connection (provider.Preconnect), and the run's first request goes out on
// it: one connection, accepted before the request was sent.
func TestWarmOpensTheConnectionTheFirstRequestUses(t *testing.T) {
	for _, v := range allVendors {
		t.Run(v.Name, func(t *testing.T) {
			srv := v.Serve(wiretest.Replies(wiretest.Reply{Text: "done"}))
			defer srv.Close()
			p := provider.WithRetry(v.Provider(srv.URL), provider.DefaultRetry)
			provider.Warm(p)
			for deadline := time.Now().Add(2 * time.Second); len(srv.Conns()) == 0 && time.Now().Before(deadline); {
				time.Sleep(time.Millisecond)
			}
			if conns := srv.Conns(); len(conns) != 1 || len(srv.Requests()) != 0 {
				t.Fatalf("after warming: connections %v, requests %d; want one connection and no request", conns, len(srv.Requests()))
			}
			resp, err := p.Stream(context.Background(), provider.Request{
				Model: "m", Messages: []provider.Message{{Role: provider.User, Text: "say hi"}},
			}, func(provider.Delta) {})
			if err != nil || resp.Message.Text != "done" {
				t.Fatalf("%v: %+v", err, resp)
			}
			conns, from := srv.Conns(), srv.RequestAddrs()
			if len(conns) != 1 || len(from) != 1 || from[0] != conns[0] {
				t.Errorf("connections %v, requests from %v: want the request on the connection opened while warming", conns, from)
			}
		})
	}
}
