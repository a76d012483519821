"""One process at a time in a build folder: make test runs its tests on two workers, and
make uf2 or make deploy may run beside it; two builds in one folder would overwrite or
delete each other's files half-way."""
import contextlib
import fcntl
import os


@contextlib.contextmanager
def folder_lock(folder):
    """Hold `folder`'s lock (the file folder + ".lock", beside it: the folder itself may be
    deleted and made again inside) until the block ends; another process waits for it."""
    os.makedirs(os.path.dirname(os.path.abspath(folder)), exist_ok=True)
    with open(os.path.abspath(folder) + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
