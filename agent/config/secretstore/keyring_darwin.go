// goose's keyring entry on macOS: the login Keychain's generic password of service "goose", account
// "secrets". go-keyring reads it; writes go through /usr/bin/security directly, because go-keyring
// stores its own base64 form, which goose cannot read.

package secretstore

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"

	keyring "github.com/zalando/go-keyring"
)

func platformGet() (string, error) {
	text, err := keyring.Get(Service, User)
	if errors.Is(err, keyring.ErrNotFound) {
		return "", errNoEntry
	}
	if err == nil && !json.Valid([]byte(text)) {
		// security prints a password with bytes outside printable ASCII in hex
		if raw, herr := hex.DecodeString(text); herr == nil && json.Valid(raw) {
			return string(raw), nil
		}
	}
	return text, err
}

// securityLineMax is the longest command `security -i` reads (go-keyring's limit too).
const securityLineMax = 4096

func platformSet(text string) error {
	line := fmt.Sprintf("add-generic-password -U -s %s -a %s -w %s\n", quote(Service), quote(User), quote(text))
	if len(line) > securityLineMax {
		return fmt.Errorf("the secrets are too long for the Keychain's command line (%d bytes)", len(line))
	}
	cmd := exec.Command("/usr/bin/security", "-i") // the secret goes on stdin, never on a command line
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	if _, err := io.WriteString(stdin, line); err != nil {
		stdin.Close()
		_ = cmd.Wait()
		return err
	}
	stdin.Close()
	return cmd.Wait()
}

// quote is a single-quoted word of security's command line.
func quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'"'"'`) + "'"
}
