// The YAML reference: libyaml through Debian's python3-yaml (CSafeLoader's C parser) plus serde_yaml's
// two rules of its own (more than one document; an alias to an unknown anchor).

package differential

import (
	"fmt"
	"os/exec"
	"strconv"
)

// libyamlScript reads {"id","text"} lines and answers {"id","error","line","column"}: error is libyaml's
// problem text (what goose prints once serde_yaml's location is cut), or serde_yaml's own message.
const libyamlScript = `
import json, sys, yaml
assert yaml.__with_libyaml__, "python3-yaml without the libyaml binding"
MORE = "deserializing from YAML containing more than one document is not supported"
def check(text):
    docs = 0
    anchors = set()
    try:
        for ev in yaml.parse(text.encode("utf-8"), Loader=yaml.CSafeLoader):
            if isinstance(ev, yaml.DocumentStartEvent):
                docs += 1
                if docs > 1:
                    return {"error": MORE, "line": ev.start_mark.line, "column": ev.start_mark.column}
                anchors = set()
            elif isinstance(ev, yaml.AliasEvent):
                if ev.anchor not in anchors:
                    return {"error": "unknown anchor", "line": ev.start_mark.line, "column": ev.start_mark.column}
            elif isinstance(ev, (yaml.ScalarEvent, yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                if ev.anchor is not None:
                    anchors.add(ev.anchor)
    except yaml.MarkedYAMLError as e:
        if docs > 1:
            return {"error": MORE}
        m = e.problem_mark
        return {"error": e.problem, "context": e.context, "line": m.line if m else None, "column": m.column if m else None}
    except yaml.reader.ReaderError as e:
        # libyaml's reader error: serde_yaml prints its problem text ("control characters are not
        # allowed"), PyYAML's str() wraps it in its own words
        if docs > 1:
            return {"error": MORE}
        return {"error": e.reason, "offset": e.position}
    except yaml.YAMLError as e:
        return {"error": str(e)}
    return {"error": None}
for line in sys.stdin:
    if not line.strip():
        continue
    req = json.loads(line)
    ans = check(req["text"])
    ans["id"] = req["id"]
    sys.stdout.write(json.dumps(ans) + "\n")
    sys.stdout.flush()
`

// YAMLAnswer is the reference verdict on one text; Error is empty when goose's YAML step accepts it.
type YAMLAnswer struct {
	ID      string  `json:"id"`
	Error   *string `json:"error"`
	Context *string `json:"context"`
	Line    *int    `json:"line"`
	Column  *int    `json:"column"`
	Crashed bool    `json:"-"`
}

// LibYAML is one long-lived python3 process parsing with libyaml.
type LibYAML struct{ proc *lineProcess }

// StartLibYAML starts the python3 libyaml process.
func StartLibYAML() (*LibYAML, error) {
	if _, err := exec.LookPath("python3"); err != nil {
		return nil, fmt.Errorf("python3 with python3-yaml is needed: %w", err)
	}
	p, err := newLineProcess("python3", "-c", libyamlScript)
	if err != nil {
		return nil, err
	}
	y := &LibYAML{proc: p}
	// fail early (with the script's assertion) when the binding is missing
	if a := y.AskAll([]string{"a: 1\n"}); a[0].Crashed || a[0].Error != nil {
		y.Close()
		return nil, fmt.Errorf("python3-yaml with libyaml (Debian python3-yaml) is needed: the probe failed")
	}
	return y, nil
}

// AskAll parses every text, in order.
func (y *LibYAML) AskAll(texts []string) []YAMLAnswer {
	type req struct {
		ID   string `json:"id"`
		Text string `json:"text"`
	}
	in := make([]any, len(texts))
	out := make([]any, len(texts))
	answers := make([]YAMLAnswer, len(texts))
	for i, t := range texts {
		in[i], out[i] = &req{ID: strconv.Itoa(i), Text: t}, &answers[i]
	}
	for i, err := range y.proc.askAll(in, out) {
		if err != nil {
			answers[i] = YAMLAnswer{Crashed: true}
		}
	}
	return answers
}

// Close stops the process.
func (y *LibYAML) Close() { y.proc.Close() }
