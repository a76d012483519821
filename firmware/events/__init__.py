"""Buttons to events: debouncing, short and long presses, repeats, and the key timing."""
