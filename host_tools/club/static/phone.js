// The phone page: a team types its name or number and sees its own line (rank, points,
// where it plays now); the whole standings below. Read-only, like the projector.
"use strict";
const find = document.getElementById("find");
let shown = null;

function fold(text) {
  return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().trim();
}

function seatOf(data, team) {
  const cur = data.current;
  if (!cur) return null;
  for (const t of cur.tables) {
    if (t.pairs) {  // an individual event: the player's seat, partner and opponents
      for (const [side, names, other, seats] of [["NS", t.ns_names, t.ew_name, ["seat_n", "seat_s"]],
                                                 ["EW", t.ew_names, t.ns_name, ["seat_e", "seat_w"]]]) {
        const i = t[side].indexOf(team);
        if (i >= 0) return say("phone_now_player", {round: cur.round, table: t.table, seat: W[seats[i]], partner: names[1 - i], opponent: other});
      }
      continue;
    }
    if (t.NS === team) return say("phone_now", {round: cur.round, table: t.table, seat: W.seat_ns, opponent: t.EW + " " + t.ew_name});
    if (t.EW === team) return say("phone_now", {round: cur.round, table: t.table, seat: W.seat_ew, opponent: t.NS + " " + t.ns_name});
  }
  return null;
}

function render() {
  const data = shown;
  const mine = document.getElementById("mine");
  const all = document.getElementById("all");
  mine.textContent = "";
  all.textContent = "";
  if (!data || !data.event) {
    document.getElementById("event-name").textContent = W.no_event;
    return;
  }
  document.getElementById("event-name").textContent = data.event.name;
  document.getElementById("sub").textContent = subtitle(data);
  setClock(data.clock);
  const title = data.standings.round ? say("standings_after", {round: data.standings.round}) : W.standings;
  document.getElementById("standings-title").textContent = title;
  const query = fold(find.value);
  const number = /^\d+$/.test(query) ? parseInt(query, 10) : null;
  const matches = data.event.ranking === "matches";
  for (const r of data.standings.ranking) {
    const points = matches ? r.match_points : r.points_for;
    const item = el("li", "line" + (r.withdrawn ? " withdrawn" : ""));
    item.appendChild(el("b", "rank", r.withdrawn ? "–" : r.rank));
    item.appendChild(el("span", "who", entrant(r) + " " + r.name));
    item.appendChild(el("span", "pts", points));
    all.appendChild(item);
    const hit = query && (number !== null ? entrant(r) === number : fold(r.name).includes(query));
    if (!hit) continue;
    item.classList.add("hit");
    const card = el("div", "card");
    card.appendChild(el("h3", "", entrant(r) + " " + r.name + (r.withdrawn ? " (" + (r.player !== undefined ? W.withdrawn_player : W.withdrawn) + ")" : "")));
    card.appendChild(el("p", "line-text", say("phone_line", {rank: r.rank, points: points, unit: matches ? W.match_points : W.points.toLowerCase()})));
    const seat = seatOf(data, entrant(r));
    const bye = data.current && data.current.bye.includes(r.name);
    if (seat || bye) card.appendChild(el("p", "seat", seat || say(data.event.format === "individual" ? "phone_sit_out" : "phone_bye", {round: data.current.round})));
    mine.appendChild(card);
  }
  if (query && !mine.childElementCount) mine.appendChild(el("p", "none", W.phone_none));
}

find.addEventListener("input", render);
follow((data) => { shown = data; render(); }, (away) => { document.getElementById("offline").hidden = !away; });
