package version

import (
	"os"
	"strings"
	"testing"
)

func TestCheckCallerAcceptsItsOwnBuildAndClearsTheEntry(t *testing.T) {
	entry := ExpectAgentEnv()
	key, value, _ := strings.Cut(entry, "=")
	t.Setenv(key, value)
	if err := CheckCaller(); err != nil {
		t.Fatalf("own build refused: %v", err)
	}
	if _, ok := os.LookupEnv(key); ok {
		t.Errorf("%s is still in the environment: the agent's children would see it", key)
	}
}

func TestCheckCallerRefusesAnotherBuild(t *testing.T) {
	t.Setenv(callerEnv, "goose-ls-agent v0.0.0-other (commit 000000000000; agrees with goose 1.0.0)")
	err := CheckCaller()
	if err == nil || !strings.Contains(err.Error(), InstallCommand) || !strings.Contains(err.Error(), "v0.0.0-other") {
		t.Fatalf("CheckCaller = %v, want the mismatch sentence with the install line", err)
	}
	if _, ok := os.LookupEnv(callerEnv); ok {
		t.Errorf("%s is still in the environment", callerEnv)
	}
}

func TestCheckCallerWithoutAnExpectationRuns(t *testing.T) {
	os.Unsetenv(callerEnv)
	if err := CheckCaller(); err != nil {
		t.Fatal(err)
	}
}

func TestLineNamesTheGooseVersion(t *testing.T) {
	if l := Line("goose-ls"); !strings.HasPrefix(l, "goose-ls "+Build().Version+" ") || !strings.Contains(l, "goose "+Goose) {
		t.Errorf("Line = %q", l)
	}
}
