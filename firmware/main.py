"""Boot: the board file (installed as /board.py) says what hardware there is."""
import board
from ui.app import run

run(board)
