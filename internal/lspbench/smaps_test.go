// residentByKind attributes each mapping's Rss to the executable, other files or anonymous memory.

package main

import "testing"

func TestResidentByKind(t *testing.T) {
	smaps := `00400000-00843000 r-xp 00000000 fd:01 123 /opt/bin/goose-ls
Size:               4364 kB
Rss:                3976 kB
00843000-00c5f000 r--p 00443000 fd:01 123 /opt/bin/goose-ls
Rss:                3888 kB
13c9de000000-13c9dfc00000 rw-p 00000000 00:00 0 
Rss:               19924 kB
Anonymous:         19924 kB
7f195e778000-7f195e8ce000 r-xp 00026000 fd:01 77 /usr/lib/x86_64-linux-gnu/libc.so.6
Rss:                 920 kB
7f191491a000-7f1914a5a000 rw-p 00000000 00:00 0
Rss:                1212 kB
7fff7cbbf000-7fff7cbe0000 rw-p 00000000 00:00 0 [stack]
Rss:                  16 kB
7f195e946000-7f195e948000 r-xp 00000000 00:00 0 [vdso]
Rss:                   8 kB
`
	got := residentByKind(smaps, "/opt/bin/goose-ls")
	want := resident{total: 29944, exe: 7864, libs: 920, anon: 21152, largestAnon: 19924}
	if got != want {
		t.Errorf("residentByKind = %+v, want %+v", got, want)
	}
}
