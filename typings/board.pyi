# The board interface of docs/architecture.md, for the type checker: on the
# Pico `import board` finds /board.py (a copy of boards/<name>.py).
from typing import Any, Callable

import framebuf

class _Display(framebuf.FrameBuffer):
    width: int
    height: int
    def show(self) -> None: ...
    def contrast(self, value: int) -> None: ...
    def poweroff(self) -> None: ...
    def poweron(self) -> None: ...

NAME: str
LAYOUT: str
STORAGE: str
display: _Display
buttons: tuple[Callable[[], bool], Callable[[], bool], Callable[[], bool], Callable[[], bool]]
app: Any

def ticks_ms() -> int: ...
def sleep_ms(ms: int) -> None: ...
def click() -> None: ...
