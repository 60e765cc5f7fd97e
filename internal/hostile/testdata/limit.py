# Runs a command under an address-space limit and reports its peak resident memory on stderr.
# A real fork (not vfork, as Go's os/exec uses) so the child's peak is its own, not its parent's.
import os
import resource
import signal
import sys

limit = int(sys.argv[1])
pid = os.fork()
if pid == 0:
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    try:
        os.execv(sys.argv[2], sys.argv[2:])
    finally:
        os._exit(127)
signal.signal(signal.SIGTERM, lambda *_: os.kill(pid, signal.SIGKILL))
_, status, usage = os.wait4(pid, 0)
sys.stderr.write("\nhostile-peak-rss-kib=%d\n" % usage.ru_maxrss)
sys.stderr.flush()
if os.WIFSIGNALED(status):
    sys.stderr.write("hostile-signal=%d\n" % os.WTERMSIG(status))
    sys.exit(128 + os.WTERMSIG(status))
sys.exit(os.WEXITSTATUS(status))
