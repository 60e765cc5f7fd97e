//go:build linux

// Every hostile case through the built `goose-ls check --format json`.

package hostile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// maxDiagnostics is the most diagnostics one file may report (a few hundred, then "N more problems").
const maxDiagnostics = 500

// checkOutput is the JSON report of `goose-ls check`.
type checkOutput struct {
	Files []struct {
		Path        string `json:"path"`
		Diagnostics []struct {
			Code     string `json:"code"`
			Message  string `json:"message"`
			Severity string `json:"severity"`
		} `json:"diagnostics"`
	} `json:"files"`
}

// refServer is an HTTP server a `$ref` names; goose-ls must never ask it.
func refServer(t *testing.T) (string, *atomic.Int64) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		hits.Add(1)
		fmt.Fprintf(w, `{"type":"string","enum":[%q]}`, marker)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/schema.json", &hits
}

func TestHostileCheck(t *testing.T) {
	url, hits := refServer(t)
	for _, c := range cases(url) {
		for _, n := range c.sizes {
			t.Run(fmt.Sprintf("%s/%d", c.name, n), func(t *testing.T) {
				t.Parallel()
				ws, outside := workspace(t)
				target := c.build(t, ws, outside, n)
				if c.dir {
					target = "."
				}
				var stdout bytes.Buffer
				res := startLimited(t, ws, &stdout, true, "check", "--format", "json", target).wait()
				checkBounded(t, "check", res)
				noMarker(t, "stdout", stdout.String())
				noMarker(t, "stderr", res.stderr)
				if res.exit != 0 && res.exit != 1 {
					t.Fatalf("exit %d (want 0 or 1)\n%s", res.exit, tail(res.stderr))
				}
				var out checkOutput
				if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
					t.Fatalf("output is not the JSON report: %v\n%s", err, tail(stdout.String()))
				}
				found := c.want == ""
				for _, f := range out.Files {
					if len(f.Diagnostics) > maxDiagnostics {
						t.Errorf("%s: %d diagnostics (at most %d)", f.Path, len(f.Diagnostics), maxDiagnostics)
					}
					for _, d := range f.Diagnostics {
						if strings.Contains(d.Code, c.want) || strings.Contains(d.Message, c.want) {
							found = true
						}
					}
				}
				if !found {
					t.Errorf("no diagnostic mentions %q: %s", c.want, tail(stdout.String()))
				}
				t.Logf("%s: exit %d, %v, peak RSS %d MiB", c.name, res.exit, res.elapsed.Round(1e6), res.maxRSS>>20)
			})
		}
	}
	t.Cleanup(func() {
		if n := hits.Load(); n != 0 {
			t.Errorf("the $ref server was asked %d times", n)
		}
	})
}
