"""Every rank's output, even when several fail: torchrun stops all ranks as soon as one exits
with an error, so a rank that fails a moment later would be killed before its report. With
``DEVICELENS_TEST_SYNC`` set to a folder, each rank waits at exit (after devicelens has printed)
until every rank has got there.
"""

import atexit
import os
import time


def wait_for_every_rank_at_exit(timeout: float = 60.0) -> None:
    folder = os.environ.get("DEVICELENS_TEST_SYNC")
    if not folder:
        return
    world = int(os.environ["WORLD_SIZE"])

    def wait() -> None:
        open(os.path.join(folder, f"rank{os.environ['RANK']}.exit"), "w").close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if sum(name.endswith(".exit") for name in os.listdir(folder)) >= world:
                return
            time.sleep(0.05)

    atexit.register(wait)
