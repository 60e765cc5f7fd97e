// Forgetting the process's keyring read, for a long-lived process that learns another one (the user's
// `goose-ls configure` in a terminal) has stored a secret since.

package secretstore

// Reread makes the next lookup read the keyring again. A read still under way is left to finish (its
// answer is as fresh as a new one); the process's notice stays sent.
func Reread() {
	proc.mu.Lock()
	defer proc.mu.Unlock()
	if !proc.started {
		return
	}
	select {
	case <-proc.done:
	default:
		return
	}
	proc.started, proc.written, proc.read = false, false, keyringRead{}
}
