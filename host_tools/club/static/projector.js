// The projector: the standings, then the round in progress, in columns of big rows
// that fill the screen; a second page (and a turn every `refresh` seconds) only when
// the rows do not fit one screen. Names are never cut: a long one wraps in its row.
"use strict";
const flow = document.getElementById("flow");
let page = 0;
let pages = 1;

function cell(row, className, text) {
  row.appendChild(el("span", className, text));
}

function teamCell(row, number, name, extra) {
  const span = el("span", "name" + (extra ? " " + extra : ""));
  span.appendChild(el("b", "team", number));
  span.appendChild(document.createTextNode(" " + name));
  row.appendChild(span);
}

function standings(data, into) {
  const matches = data.event.ranking === "matches";
  const section = el("section", "standings");
  section.id = "standings";
  const title = data.standings.round ? say("standings_after", {round: data.standings.round}) : W.standings;
  section.appendChild(el("h2", "", title));
  const head = el("div", "row head" + (matches ? " matches" : ""));
  cell(head, "num", "#");
  cell(head, "name", data.event.format === "individual" ? W.player : W.team);
  if (matches) cell(head, "num", W.match_points_short);
  cell(head, "num", W.points);
  cell(head, "num", W.diff_short);
  section.appendChild(head);
  for (const r of data.standings.ranking) {
    const row = el("div", "row standing" + (matches ? " matches" : "") + (r.withdrawn ? " withdrawn" : ""));
    cell(row, "num", r.withdrawn ? "–" : r.rank);
    teamCell(row, entrant(r), r.name + (r.withdrawn ? " (" + (r.player !== undefined ? W.withdrawn_player : W.withdrawn) + ")" : ""));
    if (matches) cell(row, "num", r.match_points);
    cell(row, "num", r.points_for);
    const diff = r.points_for - r.points_against;
    cell(row, "num", diff > 0 ? "+" + diff : diff);
    section.appendChild(row);
  }
  into.appendChild(section);
}

function round(data, into) {
  const cur = data.current;
  const section = el("section", "round");
  section.id = "tables";
  let title = say("round_n", {round: cur.round});
  if (data.progress) {
    title += " · " + W.provisional + " · " + say("filed_of", data.progress);
  }
  const h2 = el("h2", data.progress ? "provisional" : "", title);
  section.appendChild(h2);
  for (const t of cur.tables) {
    const row = el("div", "row table-row" + (t.problem ? " trouble" : ""));
    cell(row, "num tableno", t.table);
    teamCell(row, t.pairs ? t.pairs.NS : t.NS, t.ns_name);
    let ns = "", ew = "";
    if (t.result) { ns = t.result.NS; ew = t.result.EW; }
    else if (t.live) { ns = t.live.total.NS; ew = t.live.total.EW; }
    cell(row, "num score", ns);
    teamCell(row, t.pairs ? t.pairs.EW : t.EW, t.ew_name);
    cell(row, "num score", ew);
    const state = t.result ? "" : t.forfeit ? W.source_forfeit : t.live ? t.live.counted + "/" + t.live.deals : "…";
    cell(row, "num state" + (t.live ? " live" : ""), state);
    if (t.problem) cell(row, "problem", t.problem);
    section.appendChild(row);
  }
  for (const name of cur.bye) {
    const row = el("div", "row bye");
    row.appendChild(el("span", "name", say(data.event.format === "individual" ? "sit_out_name" : "bye_name", {name: name})));
    section.appendChild(row);
  }
  into.appendChild(section);
}

function draw(data) {
  document.documentElement.lang = data.lang || "fr";
  flow.textContent = "";
  if (!data.event) {
    document.getElementById("event-name").textContent = W.no_event;
    document.getElementById("sub").textContent = "";
    measure();
    return;
  }
  document.title = data.event.name;
  document.getElementById("event-name").textContent = data.event.name;
  document.getElementById("sub").textContent = subtitle(data);
  setClock(data.clock);
  standings(data, flow);
  if (data.current) round(data, flow);
  const link = data.link;
  document.getElementById("link-down").hidden = !link || link.connected;
  const problems = document.getElementById("problems");
  problems.hidden = !link || !link.problems.length;
  problems.textContent = link ? link.problems.join(" · ") : "";
  measure();
}

function step() {
  return flow.clientWidth + parseFloat(getComputedStyle(flow).columnGap || 0);
}

function measure() {
  // the flow is as high as the screen leaves it; the columns past its width are the next pages
  const top = flow.getBoundingClientRect().top;
  const pager = document.getElementById("pager");
  flow.style.height = Math.max(100, window.innerHeight - top - 4) + "px";
  pages = Math.max(1, Math.round((flow.scrollWidth + 1) / step()));
  if (page >= pages) page = 0;
  show();
}

function show() {
  flow.scrollLeft = page * step();
  const pager = document.getElementById("pager");
  pager.textContent = pages > 1 ? say("page_of", {page: page + 1, pages: pages}) : "";
  document.body.dataset.page = String(page + 1);
  document.body.dataset.pages = String(pages);
}

setInterval(() => {
  if (pages > 1) {
    page = (page + 1) % pages;
    show();
  }
}, window.CLUB.refresh * 1000);
window.addEventListener("resize", measure);
follow(draw, (away) => { document.getElementById("offline").hidden = !away; });
