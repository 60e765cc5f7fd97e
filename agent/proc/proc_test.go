// Tests for the shell choice on each OS and for killing a whole process group.

package proc

import (
	"os"
	"os/exec"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestShellChoice(t *testing.T) {
	cases := []struct {
		goos, gooseShell string
		hasBash          bool
		command          string
		want             []string // program, then arguments
		wantErr          string
	}{
		{"linux", "", true, "ls", []string{"bash", "-c", "ls"}, ""},
		{"linux", "", false, "ls", []string{"sh", "-c", "ls"}, ""},
		{"darwin", "/bin/zsh", true, "ls", []string{"/bin/zsh", "-c", "ls"}, ""},
		{"windows", "", false, "dir", []string{"cmd", "/C", "dir"}, ""},
		{"windows", "", false, "dir\r\n", []string{"cmd", "/C", "dir\r\n"}, ""},
		{"windows", `C:\Windows\System32\cmd.exe`, false, "dir", []string{`C:\Windows\System32\cmd.exe`, "/C", "dir"}, ""},
		{"windows", "pwsh", false, "ls", []string{"pwsh", "-NoProfile", "-NonInteractive", "-Command", "ls"}, ""},
		{"windows", `C:\Program Files\PowerShell\7\PowerShell.exe`, false, "ls", []string{`C:\Program Files\PowerShell\7\PowerShell.exe`, "-NoProfile", "-NonInteractive", "-Command", "ls"}, ""},
		{"windows", "bash", true, "ls", []string{"bash", "-c", "ls"}, ""},
		{"windows", "", false, "cd src\ndir", nil, "only the first line"},
	}
	for _, c := range cases {
		name, args, err := Shell(c.goos, c.gooseShell, c.hasBash, c.command)
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%s %q %q: err %v, want one containing %q", c.goos, c.gooseShell, c.command, err, c.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %q %q: %v", c.goos, c.gooseShell, c.command, err)
			continue
		}
		if got := append([]string{name}, args...); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %q %q: %q, want %q", c.goos, c.gooseShell, c.command, got, c.want)
		}
	}
}

// A grandchild started by the command dies with it: Kill reaches the whole group.
func TestKillReachesTheGroup(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("sh and sleep are Unix programs")
	}
	cmd := exec.Command("sh", "-c", "sleep 30 & echo $!; wait")
	Detach(cmd)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 32)
	n, _ := out.Read(buf)
	grandchild := strings.TrimSpace(string(buf[:n]))
	Kill(cmd)
	_ = cmd.Wait()
	deadline := time.Now().Add(3 * time.Second)
	for alive(grandchild) {
		if time.Now().After(deadline) {
			t.Fatalf("the grandchild %s still runs after Kill", grandchild)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// alive reports whether the process pid exists and is not a zombie waiting to be reaped.
func alive(pid string) bool {
	if exec.Command("kill", "-0", pid).Run() != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return true // no /proc (macOS): kill -0 is all there is
	}
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(fields) == 0 || fields[0] != "Z"
}
