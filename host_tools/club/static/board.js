// What the projector and the phone pages share: the words sent with the page, a small
// element builder (text only: a team's name never becomes markup), and the loop that
// fetches /projector.json and keeps trying when the server is away (a restart).
"use strict";
const W = JSON.parse(document.getElementById("words").textContent);

function say(key, fields) {
  return W[key].replace(/\{(\w+)\}/g, (all, name) => (fields && name in fields ? String(fields[name]) : all));
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function subtitle(data) {
  const ev = data.event;
  const length = ev.deals ? say("deals_n", {deals: ev.deals}) : say("to_target", {target: ev.target});
  const where = data.current ? say("round_of", {round: data.current.round, rounds: ev.rounds}) : W.before_draw;
  const progress = data.progress
    ? " · " + W.provisional + " · " + say("filed_of", data.progress)
    : "";
  return where + " · " + length + progress;
}

// fetch every `refresh` seconds; draw(data) on each answer; offline(true/false) says
// whether the last try failed (the page keeps what it last had)
function follow(draw, offline) {
  const first = JSON.parse(document.getElementById("first").textContent);
  draw(first);
  let last = JSON.stringify(first);
  async function tick() {
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), 8000);
    try {
      const answer = await fetch(window.CLUB.source, {cache: "no-store", signal: stop.signal});
      if (!answer.ok) throw new Error("status " + answer.status);
      const data = await answer.json();
      offline(false);
      const text = JSON.stringify(data);
      if (text !== last) {
        last = text;
        draw(data);
      }
    } catch (e) {
      offline(true);
    } finally {
      clearTimeout(timer);
      setTimeout(tick, window.CLUB.refresh * 1000);
    }
  }
  setTimeout(tick, window.CLUB.refresh * 1000);
}
