// Connections to a provider opened ahead of its first request. A run resolves its provider and then
// starts its extensions and writes its system prompt before the first request (about a millisecond with
// goose's builtins, seconds with a stdio server that npx installs); the provider's TCP connection is
// dialled meanwhile, and the first request's dial takes it instead of opening another.

package provider

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// HTTPClient is the HTTP client of every provider's SDK: http.DefaultTransport's settings, with a dialer
// that hands a request the connection Preconnect opened to its address (built on first use).
var HTTPClient = sync.OnceValue(func() *http.Client { return &http.Client{Transport: newPreconnectTransport(preconnects)} })

var preconnects = &preconnector{dialer: &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}, maxAge: 5 * time.Second}

// Preconnect opens a TCP connection to the host of baseURL (a provider's API), once per address in this
// process: later requests reuse the transport's idle connections. Nothing is sent on it. A proxy from
// the environment, a host that is not ASCII or a URL that is not http(s) is left alone.
func Preconnect(baseURL string) {
	preconnects.preconnect(baseURL)
}

// preconnector holds the connections opened ahead, one per address.
type preconnector struct {
	dialer *net.Dialer
	// maxAge is how long an opened connection waits for its request: a server may drop a connection that
	// stays silent, so an older one is closed and the request dials afresh.
	maxAge  time.Duration
	mu      sync.Mutex
	tried   map[string]bool
	pending map[string]*openedConn
}

// openedConn is a dial under way or done; done closes when conn and err are set.
type openedConn struct {
	done chan struct{}
	conn net.Conn
	err  error
	at   time.Time
}

func (p *preconnector) preconnect(baseURL string) {
	addr, ok := dialAddress(baseURL)
	if !ok {
		return
	}
	p.mu.Lock()
	if p.tried[addr] {
		p.mu.Unlock()
		return
	}
	if p.tried == nil {
		p.tried, p.pending = map[string]bool{}, map[string]*openedConn{}
	}
	p.tried[addr] = true
	oc := &openedConn{done: make(chan struct{})}
	p.pending[addr] = oc
	p.mu.Unlock()
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), p.dialer.Timeout)
		defer cancel()
		oc.conn, oc.err = p.dialer.DialContext(ctx, "tcp", addr)
		oc.at = time.Now()
		close(oc.done)
		time.AfterFunc(p.maxAge, func() { p.discard(addr, oc) })
	}()
}

// discard closes oc when no request took it.
func (p *preconnector) discard(addr string, oc *openedConn) {
	p.mu.Lock()
	unused := p.pending[addr] == oc
	if unused {
		delete(p.pending, addr)
	}
	p.mu.Unlock()
	if unused && oc.conn != nil {
		oc.conn.Close()
	}
}

// dial is the transport's DialContext: the connection opened ahead for addr when there is a fresh one
// (waiting for a dial under way), else a new one.
func (p *preconnector) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	var oc *openedConn
	if network == "tcp" {
		p.mu.Lock()
		oc = p.pending[addr]
		delete(p.pending, addr)
		p.mu.Unlock()
	}
	if oc != nil {
		select {
		case <-oc.done:
			if oc.err == nil && time.Since(oc.at) < p.maxAge {
				return oc.conn, nil
			}
			if oc.conn != nil {
				oc.conn.Close()
			}
		case <-ctx.Done():
			go func() { // the dial still finishes; its connection is not wanted
				<-oc.done
				if oc.conn != nil {
					oc.conn.Close()
				}
			}()
			return nil, ctx.Err()
		}
	}
	return p.dialer.DialContext(ctx, network, addr)
}

// newPreconnectTransport is http.DefaultTransport's configuration dialling through p.
func newPreconnectTransport(p *preconnector) *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DialContext = p.dial
	return t
}

// dialAddress is the host:port the transport dials for a request to baseURL (net/http's canonical address
// of an ASCII host), or false when a proxy from the environment would be dialled instead, or the URL is
// not one to open ahead.
func dialAddress(baseURL string) (string, bool) {
	u, err := url.Parse(baseURL)
	if err != nil || u.Hostname() == "" {
		return "", false
	}
	port := u.Port()
	switch {
	case u.Scheme == "http" && port == "":
		port = "80"
	case u.Scheme == "https" && port == "":
		port = "443"
	case u.Scheme != "http" && u.Scheme != "https":
		return "", false
	}
	for _, c := range u.Hostname() {
		if c >= 0x80 {
			return "", false
		}
	}
	if proxy, err := http.ProxyFromEnvironment(&http.Request{URL: u}); err != nil || proxy != nil {
		return "", false
	}
	return net.JoinHostPort(u.Hostname(), port), true
}
