"""What a script sees of how it was started; argv[1] picks how it ends."""

import atexit
import os
import signal
import sys

atexit.register(print, "atexit ran")
print("argv", sys.argv)
print("path0", sys.path[0])
print("file", __file__)
print("name", __name__, __spec__, type(__loader__).__name__)
print("main module", sys.modules["__main__"].__dict__ is globals())
print("globals", sorted(globals()))
print("sibling import", __import__("_exit_sync").__name__)
end = sys.argv[1] if len(sys.argv) > 1 else ""
if end == "exit":
    sys.exit(int(sys.argv[2]))
if end == "exit-message":
    sys.exit("bye from the script")
if end == "raise":
    try:
        {}["missing"]
    except KeyError as e:
        raise ValueError("boom") from e
if end == "interrupt":
    raise KeyboardInterrupt
if end == "sigterm":
    os.kill(os.getpid(), signal.SIGTERM)
print("end")
