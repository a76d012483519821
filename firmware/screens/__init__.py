"""The screen state machine: the base screens, the table screens, deal entry and the screens loaded on demand."""
