// Tool-output offload (goose's large_response_handler): a tool result whose text is longer than
// GOOSE_MAX_TOOL_RESPONSE_SIZE characters is saved, redacted, where goose saves it — a new file
// goose_mcp_response_<random>.txt of the system's temporary folder, 0600, kept after the run as goose
// keeps it — and the model gets goose's sentence naming the file instead.

package agent

import (
	"fmt"
	"os"
	"strconv"
	"unicode/utf8"

	"github.com/goose-ls/goose-ls/agent/tools"
)

// DefaultMaxToolResponseSize is goose's threshold in Unicode scalars.
const DefaultMaxToolResponseSize = 200000

// toolResponseLimit is Config.MaxToolResponseSize, else GOOSE_MAX_TOOL_RESPONSE_SIZE, else the default;
// negative: never offload.
func (c *Config) toolResponseLimit() int {
	if c.MaxToolResponseSize != 0 {
		return c.MaxToolResponseSize
	}
	if n, err := strconv.ParseUint(os.Getenv("GOOSE_MAX_TOOL_RESPONSE_SIZE"), 10, 0); err == nil {
		return int(n)
	}
	return DefaultMaxToolResponseSize
}

// offload replaces a result text over the limit with goose's sentence naming the file that holds it
// (redacted); if it cannot be saved the model gets goose's warning and the whole text.
func (r *run) offload(res tools.Result) tools.Result {
	limit := r.cfg.toolResponseLimit()
	if limit < 0 || len(res.Text) <= limit { // a text of ≤ limit bytes has ≤ limit characters
		return res
	}
	n := utf8.RuneCountInString(res.Text)
	if n <= limit {
		return res
	}
	path, err := saveOffloaded(r.cfg.OffloadDir, r.cfg.Redactor.Redact(res.Text))
	if err != nil {
		res.Text = fmt.Sprintf("Warning: Failed to write large response to file: %v. Showing full content instead.\n\n%s", err, res.Text)
		return res
	}
	res.Text = fmt.Sprintf("The response returned from the tool call was larger (%d characters) and is stored in the file which you can use other tools to examine or search in: %s", n, path)
	return res
}

// saveOffloaded writes text to a new file of dir ("": the system's temporary folder) named as goose names
// it; os.CreateTemp makes it 0600 with a random name and never opens an existing file.
func saveOffloaded(dir, text string) (string, error) {
	if dir == "" {
		dir = os.TempDir()
	}
	fh, err := os.CreateTemp(dir, "goose_mcp_response_*.txt")
	if err != nil {
		return "", err
	}
	if _, err := fh.WriteString(text); err != nil {
		fh.Close()
		os.Remove(fh.Name())
		return "", err
	}
	if err := fh.Close(); err != nil {
		os.Remove(fh.Name())
		return "", err
	}
	return fh.Name(), nil
}
