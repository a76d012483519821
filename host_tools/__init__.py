"""Host-side tools (CPython): simulator front end, calculators, checks."""
