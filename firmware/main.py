"""Boot: the board file (installed as /board.py) says what hardware there is."""
import board
from app import run

run(board)
