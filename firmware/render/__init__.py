"""Drawing: the two screen layouts, text and digits, the languages."""
