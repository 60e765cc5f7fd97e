// Emacs + Eglot in batch mode, Emacs 28.2 with Debian's Eglot 1.9 (the host's) and Emacs 30.1 with its
// built-in Eglot (trixie's root filesystem, `make e2e-rootfs`): diagnostics, completion, a quick fix,
// and an agent run whose edit lands in an open buffer.
package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestEmacsEglot(t *testing.T) {
	for _, em := range emacsen {
		t.Run(em.name, func(t *testing.T) {
			em.require(t)
			bin := buildServer(t)
			root, srv := pluginWorkspace(t)
			// Eglot's project is the recipe's folder here (no version control): the recipe sits at the root
			if err := os.Rename(filepath.Join(root, "recipes", "write.yaml"), filepath.Join(root, "write.recipe.yaml")); err != nil {
				t.Fatal(err)
			}
			home := t.TempDir()
			env := append([]string{"HOME=" + home, "WORK_DIR=" + root}, agentEnv(srv, home)...)
			em.run(t, 90*time.Second, bin, root, env, "OK", "--batch", "-Q", "-l", staged(t, "e2e/emacs_eglot.el"))
			checkTopicReachedModel(t, srv, "agents")
			if msgs := requestAfter(t, srv, `"tool_call_id"`); !strings.Contains(msgs, "unsaved line") {
				t.Errorf("the model's read of notes.txt lacks the unsaved line: %s", msgs)
			}
		})
	}
}
