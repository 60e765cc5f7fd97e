//go:build !darwin && !windows

// goose's keyring entry on Linux and the BSDs: the Secret Service on the D-Bus session bus, through
// go-keyring. goose's keyring crate (3.6) finds its item by service, username and target "default" in
// every collection, else by service and username in the default collection; go-keyring reads by service
// and username in the login collection, and writes with "replace", which gnome-keyring applies to goose's
// item in place (its attributes become service and username, which goose's second search finds:
// cmd/goose-ls-agent/keyring_test.go checks both). go-keyring waits for an unlock prompt without a
// limit: keyring.go bounds every call.

package secretstore

import (
	"errors"
	"fmt"
	"os"

	keyring "github.com/zalando/go-keyring"
)

func platformGet() (string, error) {
	if err := sessionBus(); err != nil {
		return "", err
	}
	text, err := keyring.Get(Service, User)
	if errors.Is(err, keyring.ErrNotFound) {
		return "", errNoEntry
	}
	return text, err
}

func platformSet(text string) error {
	if err := sessionBus(); err != nil {
		return err
	}
	return keyring.Set(Service, User, text)
}

// sessionBus checks there is a session bus to ask, where godbus looks for one, before go-keyring
// connects: without one godbus would launch a bus daemon of its own (dbus-launch), which a language
// server must not leave behind.
func sessionBus() error {
	if a := os.Getenv("DBUS_SESSION_BUS_ADDRESS"); a != "" && a != "autolaunch:" {
		return nil
	}
	for _, name := range []string{"bus", "dbus-session"} {
		if _, err := os.Stat(fmt.Sprintf("/run/user/%d/%s", os.Getuid(), name)); err == nil {
			return nil
		}
	}
	return errors.New("no D-Bus session bus")
}
