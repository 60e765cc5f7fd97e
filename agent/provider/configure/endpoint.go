// Where goose 1.38's built-in `openai` provider sends requests (runtime-1.38 §7.4), and how a goose
// host + base path become the SDK's base URL and request path.

package configure

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/goose-ls/goose-ls/agent/provider/openai"
)

// openaiEndpoint is the host and base path of the openai provider: OPENAI_HOST wins; else
// OPENAI_BASE_URL (a path that is empty or ends in /v1 → host without /v1 and v1/chat/completions; any
// other path → the whole URL and chat/completions; the query kept); else https://api.openai.com.
// OPENAI_BASE_PATH overrides the path. (goose reads OPENAI_HOST from the environment before
// OPENAI_BASE_URL and from config.yaml after it; goose-ls's lookup merges the two, so OPENAI_HOST from
// either wins.)
func openaiEndpoint(val func(string) string) (host, basePath string, err error) {
	basePath = val("OPENAI_BASE_PATH")
	host = val("OPENAI_HOST")
	if host == "" {
		if raw := val("OPENAI_BASE_URL"); raw != "" {
			u, err := url.Parse(raw)
			if err != nil || u.Scheme == "" || u.Host == "" {
				return "", "", fmt.Errorf("provider openai: OPENAI_BASE_URL %q is not a URL", raw)
			}
			p := strings.TrimRight(u.Path, "/")
			path := openai.DefaultChatPath
			if p == "" || strings.HasSuffix(p, "/v1") {
				u.Path, u.RawPath = strings.TrimSuffix(p, "/v1"), ""
			} else {
				path = "chat/completions"
			}
			if basePath == "" {
				basePath = path
			}
			return u.String(), basePath, nil
		}
		host = "https://api.openai.com"
	}
	if basePath == "" {
		basePath = openai.DefaultChatPath
	}
	return host, basePath, nil
}

// sdkEndpoint turns a goose host (scheme optional: https) and a request path into the SDK's base URL
// (scheme://host/), the whole request path (a relative path goes under the host's own path, an
// absolute one replaces it, as goose's URL join does) and the host's query.
func sdkEndpoint(host, path string) (base, fullPath string, query url.Values) {
	if !strings.Contains(host, "://") {
		host = "https://" + host
	}
	u, err := url.Parse(host)
	if err != nil || u.Host == "" {
		// not a URL: let the SDK report it on the first request, under the old joining rule
		return baseURL(host, path), "", nil
	}
	fullPath = path
	if !strings.HasPrefix(path, "/") {
		fullPath = strings.TrimRight(u.Path, "/") + "/" + path
	}
	return u.Scheme + "://" + u.Host + "/", fullPath, u.Query()
}
