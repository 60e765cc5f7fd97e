// The run's session recorder: goose's store opens when the run starts, and each message is committed
// before the loop goes on (so before the next provider request); each sub-agent's run is stored as a
// session of its own.

package host

import (
	"github.com/goose-ls/goose-ls/agent"
	"github.com/goose-ls/goose-ls/agent/session"
)

// runRecorder is the run's agent.Recorder (and the todo extension's extension-data store): a
// session.Recorder that also gives each sub-agent a recorder.
type runRecorder struct{ *session.Recorder }

// SubAgent stores a sub-agent working in workDir as a delegated task's session (agent.SubAgentRecorder).
func (r runRecorder) SubAgent(workDir string) agent.Recorder {
	return runRecorder{r.Recorder.SubAgent(workDir)}
}

var _ agent.SubAgentRecorder = runRecorder{}
