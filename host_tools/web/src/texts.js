// The page's own words in the device's four languages; the page speaks the browser's
// language when it is one of them, else English.  The device's screen keeps its own
// language setting (the "Language" chooser changes it, as the device's Settings do).
'use strict';

const TEXTS = {
  en: {
    title: 'Coinche scoreboard',
    board: 'Board',
    language: 'Language of the device',
    keys: 'Keys: <kbd>↑</kbd> <kbd>↓</kbd> move, <kbd>Enter</kbd> OK, <kbd>Backspace</kbd> back; '
      + 'hold a key or a button as you would hold the board\'s. The screen says what each button does.',
    newGame: 'New game on a new device',
    newGameIntro: 'The game stays in this browser. A reset forgets it, and the device starts a new game with:',
    rules: 'Rules',
    target: 'Target',
    reset: 'Reset the device…',
    confirmReset: 'Forget the game kept on this {board} and start a new one?',
    about: 'The real firmware: MicroPython with the scoreboard frozen in (the one-file UF2 a Pico gets), '
      + 'on an emulated RP2040 in this page. Nothing is sent anywhere.',
    download: 'Download this board\'s UF2',
    downloadHow: '(hold BOOTSEL while plugging the Pico in, then copy the file onto it).',
    starting: 'starting the emulated Pico…',
    settingUp: 'setting up the new game…',
    notKept: 'the game could not be kept in this browser: {error}',
    stopped: 'the emulator stopped: {error}',
    failed: 'the emulator failed: {error}',
    couldNotStart: 'the page could not start: {error}',
    needsNetwork: 'The {board} needs the network once (its firmware was never downloaded in this browser); '
      + 'here is the {other} meanwhile.',
    noNetwork: 'The page needs the network once: its files are not in this browser yet.',
  },
  fr: {
    title: 'Marqueur de coinche',
    board: 'Carte',
    language: 'Langue de l\'appareil',
    keys: 'Touches : <kbd>↑</kbd> <kbd>↓</kbd> déplacer, <kbd>Entrée</kbd> OK, <kbd>Retour arrière</kbd> retour ; '
      + 'maintenez une touche ou un bouton comme celui de la carte. L\'écran dit ce que fait chaque bouton.',
    newGame: 'Nouvelle partie sur un nouvel appareil',
    newGameIntro: 'La partie reste dans ce navigateur. Une remise à zéro l\'oublie, et l\'appareil commence '
      + 'une nouvelle partie avec :',
    rules: 'Règles',
    target: 'Objectif',
    reset: 'Remettre l\'appareil à zéro…',
    confirmReset: 'Oublier la partie gardée sur cette {board} et en commencer une nouvelle ?',
    about: 'Le vrai micrologiciel : MicroPython avec le marqueur intégré (l\'UF2 d\'un seul fichier que reçoit '
      + 'un Pico), sur un RP2040 émulé dans cette page. Rien n\'est envoyé nulle part.',
    download: 'Télécharger l\'UF2 de cette carte',
    downloadHow: '(maintenez BOOTSEL en branchant le Pico, puis copiez le fichier dessus).',
    starting: 'démarrage du Pico émulé…',
    settingUp: 'préparation de la nouvelle partie…',
    notKept: 'la partie n\'a pas pu être gardée dans ce navigateur : {error}',
    stopped: 'l\'émulateur s\'est arrêté : {error}',
    failed: 'l\'émulateur a échoué : {error}',
    couldNotStart: 'la page n\'a pas pu démarrer : {error}',
    needsNetwork: 'La {board} a besoin du réseau une fois (son micrologiciel n\'a jamais été téléchargé dans '
      + 'ce navigateur) ; voici la {other} en attendant.',
    noNetwork: 'La page a besoin du réseau une fois : ses fichiers ne sont pas encore dans ce navigateur.',
  },
  de: {
    title: 'Coinche-Punktezähler',
    board: 'Platine',
    language: 'Sprache des Geräts',
    keys: 'Tasten: <kbd>↑</kbd> <kbd>↓</kbd> bewegen, <kbd>Enter</kbd> OK, <kbd>Rücktaste</kbd> zurück; '
      + 'eine Taste oder einen Knopf halten wie den der Platine. Der Bildschirm sagt, was jeder Knopf tut.',
    newGame: 'Neues Spiel auf einem neuen Gerät',
    newGameIntro: 'Das Spiel bleibt in diesem Browser. Ein Zurücksetzen vergisst es, und das Gerät beginnt '
      + 'ein neues Spiel mit:',
    rules: 'Regeln',
    target: 'Ziel',
    reset: 'Gerät zurücksetzen…',
    confirmReset: 'Das auf diesem {board} gespeicherte Spiel vergessen und ein neues beginnen?',
    about: 'Die echte Firmware: MicroPython mit eingebautem Punktezähler (die UF2-Datei, die ein Pico bekommt), '
      + 'auf einem emulierten RP2040 in dieser Seite. Nichts wird irgendwohin gesendet.',
    download: 'Die UF2 dieser Platine herunterladen',
    downloadHow: '(BOOTSEL beim Einstecken des Pico halten, dann die Datei darauf kopieren).',
    starting: 'der emulierte Pico startet…',
    settingUp: 'das neue Spiel wird eingerichtet…',
    notKept: 'das Spiel konnte in diesem Browser nicht gespeichert werden: {error}',
    stopped: 'der Emulator hat angehalten: {error}',
    failed: 'der Emulator ist fehlgeschlagen: {error}',
    couldNotStart: 'die Seite konnte nicht starten: {error}',
    needsNetwork: '{board} braucht einmal das Netz (seine Firmware wurde in diesem Browser nie geladen); '
      + 'hier solange {other}.',
    noNetwork: 'Die Seite braucht einmal das Netz: ihre Dateien sind noch nicht in diesem Browser.',
  },
  it: {
    title: 'Segnapunti di coinche',
    board: 'Scheda',
    language: 'Lingua del dispositivo',
    keys: 'Tasti: <kbd>↑</kbd> <kbd>↓</kbd> spostarsi, <kbd>Invio</kbd> OK, <kbd>Backspace</kbd> indietro; '
      + 'tenete premuto un tasto o un pulsante come quello della scheda. Lo schermo dice cosa fa ogni pulsante.',
    newGame: 'Nuova partita su un nuovo dispositivo',
    newGameIntro: 'La partita resta in questo browser. Un azzeramento la dimentica, e il dispositivo inizia '
      + 'una nuova partita con:',
    rules: 'Regole',
    target: 'Obiettivo',
    reset: 'Azzera il dispositivo…',
    confirmReset: 'Dimenticare la partita tenuta su questa {board} e iniziarne una nuova?',
    about: 'Il vero firmware: MicroPython con il segnapunti integrato (l\'UF2 in un solo file che riceve un Pico), '
      + 'su un RP2040 emulato in questa pagina. Niente viene inviato da nessuna parte.',
    download: 'Scarica l\'UF2 di questa scheda',
    downloadHow: '(tenete premuto BOOTSEL collegando il Pico, poi copiatevi il file).',
    starting: 'avvio del Pico emulato…',
    settingUp: 'preparazione della nuova partita…',
    notKept: 'la partita non ha potuto essere tenuta in questo browser: {error}',
    stopped: 'l\'emulatore si è fermato: {error}',
    failed: 'l\'emulatore non è riuscito: {error}',
    couldNotStart: 'la pagina non ha potuto avviarsi: {error}',
    needsNetwork: 'La {board} ha bisogno della rete una volta (il suo firmware non è mai stato scaricato in '
      + 'questo browser); ecco intanto la {other}.',
    noNetwork: 'La pagina ha bisogno della rete una volta: i suoi file non sono ancora in questo browser.',
  },
};

/** The first of the browser's languages the page speaks, else English. */
function pageLanguage(preferred) {
  for (const tag of preferred || []) {
    const code = String(tag).slice(0, 2).toLowerCase();
    if (TEXTS[code]) return code;
  }
  return 'en';
}

/** The text `key` in `language`, its {names} filled from `values`. */
function text(language, key, values) {
  const template = (TEXTS[language] || TEXTS.en)[key] || TEXTS.en[key];
  return template.replace(/\{(\w+)\}/g, (_, name) => (values && name in values ? values[name] : `{${name}}`));
}

module.exports = { TEXTS, pageLanguage, text };
