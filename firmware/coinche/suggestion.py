"""The "did you mean" of an error message: the closest choice to a mistyped word.

Imported by coinche.record.suggest() and coinche.rule_options only when a record, an option or a preset is
wrong (the calculator's and the host tools' messages); a game on the device never
needs it, so its code stays off the Pico's heap.
"""


def distance(first, second):
    """Edit distance, small strings only: for "did you mean" hints on key typos."""
    prev = list(range(len(second) + 1))
    for i in range(1, len(first) + 1):
        cur = [i] + [0] * len(second)
        for j in range(1, len(second) + 1):
            cost = 0 if first[i - 1] == second[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
        prev = cur
    return prev[len(second)]


def closest(word, choices):
    """The choice within an edit distance of 2 of `word` (case ignored), the first of the
    closest; None when none is that close."""
    best = None
    best_distance = 3
    for choice in choices:
        d = distance(word.lower(), choice.lower())
        if d < best_distance:
            best, best_distance = choice, d
    return best
