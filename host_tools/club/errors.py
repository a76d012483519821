"""The one error the organiser's app reports: bad input, a step out of order, a file
that is not ours. The command line prints its message and exits with status 2; the
admin page shows it; in both cases nothing stored has changed."""


class ClubError(Exception):
    pass
