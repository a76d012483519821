"""The few words of the export's HTML report that no scoreboard screen shows (the page's
titles and its sentences), per language. Everything the screens also say (contracts,
melds, belote, made/failed, the statistics' labels) is read from the firmware's own text
tables instead (firmware/render/lang/*.txt), so the report and the screens agree."""

REPORT_WORDS = {
    "fr": {"title": "Soirée de coinche", "evening": "La soirée", "game": "Partie %d", "current": " (en cours)",
           "won": "%s gagne", "in_progress": "partie en cours", "not_finished": "non terminée",
           "details": "Détails", "summary": "%s, but %d%s ; premier donneur %s ; %d donnes",
           "source": "%d parties de %s, exportées le %s", "none": "Aucune partie gardée sur ce tableau.",
           "problems": "Non exporté", "target_line": "but",
           "round_table": " – concours, partie %d, table %d", "round_teams": "équipes %d (NS) et %d (EO) ; code du résultat %s"},
    "en": {"title": "Coinche evening", "evening": "The evening", "game": "Game %d", "current": " (current)",
           "won": "%s won", "in_progress": "game in progress", "not_finished": "not finished",
           "details": "Details", "summary": "%s, target %d%s; first dealer %s; %d deals",
           "source": "%d games from %s, exported %s", "none": "No game kept on this scoreboard.",
           "problems": "Not exported", "target_line": "target",
           "round_table": " – concours round %d, table %d", "round_teams": "teams %d (NS) and %d (EW); result code %s"},
    "de": {"title": "Coinche-Abend", "evening": "Der Abend", "game": "Partie %d", "current": " (laufend)",
           "won": "%s gewinnt", "in_progress": "Partie läuft", "not_finished": "nicht beendet",
           "details": "Einzelheiten", "summary": "%s, Ziel %d%s; erster Geber %s; %d Spiele",
           "source": "%d Partien aus %s, exportiert am %s", "none": "Keine Partie auf dieser Anzeige gespeichert.",
           "problems": "Nicht exportiert", "target_line": "Ziel",
           "round_table": " – Turnier, Runde %d, Tisch %d", "round_teams": "Teams %d (NS) und %d (OW); Ergebniscode %s"},
    "it": {"title": "Serata di coinche", "evening": "La serata", "game": "Partita %d", "current": " (in corso)",
           "won": "vince %s", "in_progress": "partita in corso", "not_finished": "non finita",
           "details": "Dettagli", "summary": "%s, obiettivo %d%s; primo mazziere %s; %d mani",
           "source": "%d partite da %s, esportate il %s", "none": "Nessuna partita salvata su questo segnapunti.",
           "problems": "Non esportato", "target_line": "obiettivo",
           "round_table": " – torneo, turno %d, tavolo %d", "round_teams": "squadre %d (NS) e %d (EO); codice del risultato %s"},
}
