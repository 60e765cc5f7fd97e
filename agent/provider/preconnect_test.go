package provider

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// acceptLog is an HTTP test server that records the remote address of every connection it accepts and
// of every request it answers.
type acceptLog struct {
	srv      *httptest.Server
	mu       sync.Mutex
	accepted []string
	closed   []string
	served   []string
}

func newAcceptLog(t *testing.T) *acceptLog {
	t.Helper()
	a := &acceptLog{}
	a.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.mu.Lock()
		a.served = append(a.served, r.RemoteAddr)
		a.mu.Unlock()
		io.WriteString(w, "ok")
	}))
	a.srv.Config.ConnState = func(c net.Conn, s http.ConnState) {
		a.mu.Lock()
		defer a.mu.Unlock()
		switch s {
		case http.StateNew:
			a.accepted = append(a.accepted, c.RemoteAddr().String())
		case http.StateClosed:
			a.closed = append(a.closed, c.RemoteAddr().String())
		}
	}
	a.srv.Start()
	t.Cleanup(a.srv.Close)
	return a
}

func (a *acceptLog) snapshot() (accepted, closed, served []string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.accepted...), append([]string(nil), a.closed...), append([]string(nil), a.served...)
}

// waitFor polls cond for up to two seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// freshClient is a client over its own preconnector, as HTTPClient is over the process's.
func freshClient() (*preconnector, *http.Client) {
	p := &preconnector{dialer: &net.Dialer{Timeout: 5 * time.Second}, maxAge: 5 * time.Second}
	return p, &http.Client{Transport: newPreconnectTransport(p)}
}

func get(t *testing.T, c *http.Client, url string) {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
}

func TestTheFirstRequestTakesTheConnectionOpenedAhead(t *testing.T) {
	a := newAcceptLog(t)
	p, c := freshClient()
	p.preconnect(a.srv.URL + "/v1/")
	waitFor(t, "the connection opened ahead", func() bool { acc, _, _ := a.snapshot(); return len(acc) == 1 })
	get(t, c, a.srv.URL+"/v1/chat/completions")
	get(t, c, a.srv.URL+"/v1/chat/completions") // the transport's idle connection
	acc, _, served := a.snapshot()
	if len(acc) != 1 || len(served) != 2 || served[0] != acc[0] || served[1] != acc[0] {
		t.Errorf("accepted %v, requests from %v: want one connection, opened ahead, serving both", acc, served)
	}
	// once per address: the transport keeps its own connections from then on
	p.preconnect(a.srv.URL)
	time.Sleep(50 * time.Millisecond)
	if acc, _, _ := a.snapshot(); len(acc) != 1 {
		t.Errorf("a second Preconnect to the same address dialled again: %v", acc)
	}
}

func TestAConnectionOpenedTooLongAgoIsClosedNotUsed(t *testing.T) {
	a := newAcceptLog(t)
	p, c := freshClient()
	p.maxAge = 30 * time.Millisecond
	p.preconnect(a.srv.URL)
	waitFor(t, "the stale connection closed", func() bool { _, closed, _ := a.snapshot(); return len(closed) == 1 })
	get(t, c, a.srv.URL)
	acc, closed, served := a.snapshot()
	if len(acc) != 2 || len(served) != 1 || served[0] != acc[1] || closed[0] != acc[0] {
		t.Errorf("accepted %v, closed %v, requests from %v: want the request on a new connection", acc, closed, served)
	}
}

func TestADialUnderWayIsWaitedForAndAFailedOneRedialled(t *testing.T) {
	// a listener that accepts late: the request waits for the dial opened ahead rather than dialling again
	a := newAcceptLog(t)
	p, c := freshClient()
	p.preconnect(a.srv.URL)
	get(t, c, a.srv.URL) // possibly before the dial ahead has finished
	if acc, _, served := a.snapshot(); len(acc) != 1 || len(served) != 1 || served[0] != acc[0] {
		t.Errorf("accepted %v, requests from %v: want the request on the connection opened ahead", acc, served)
	}
	// nothing listening: the dial ahead fails, and the request's own dial reports the failure
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String()
	ln.Close()
	p.preconnect(dead)
	if _, err := c.Get(dead); err == nil {
		t.Error("a request to a closed port succeeded")
	}
}

func TestARequestWhoseContextEndsDoesNotWaitForTheDialAhead(t *testing.T) {
	p := &preconnector{dialer: &net.Dialer{Timeout: 5 * time.Second}, maxAge: 5 * time.Second}
	oc := &openedConn{done: make(chan struct{})} // a dial that never finishes
	p.tried, p.pending = map[string]bool{"10.0.0.1:80": true}, map[string]*openedConn{"10.0.0.1:80": oc}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.dial(ctx, "tcp", "10.0.0.1:80"); !errors.Is(err, context.Canceled) {
		t.Errorf("dial with an ended context: %v", err)
	}
}

func TestDialAddressIsTheTransportsAddress(t *testing.T) {
	for in, want := range map[string]string{
		"https://api.openai.com/v1/":      "api.openai.com:443",
		"http://localhost:11434/v1/":      "localhost:11434",
		"http://127.0.0.1/":               "127.0.0.1:80",
		"https://[::1]:8443/":             "[::1]:8443",
		"https://Example.COM/anthropic/":  "Example.COM:443",
		"ftp://example.com/":              "",
		"/v1/":                            "",
		"https://b\u00fccher.example/v1/": "", // not ASCII: net/http converts it first
	} {
		got, ok := dialAddress(in)
		if !ok {
			got = ""
		}
		if got != want {
			t.Errorf("dialAddress(%q) = %q, want %q", in, got, want)
		}
	}
}
