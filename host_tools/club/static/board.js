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
  let length = ev.deals ? say("deals_n", {deals: ev.deals}) : ev.target ? say("to_target", {target: ev.target}) : "";
  if (ev.minutes) length += (length ? " · " : "") + say("minutes_n", {minutes: ev.minutes});
  const where = data.current ? say("round_of", {round: data.current.round, rounds: ev.rounds}) : W.before_draw;
  const progress = data.progress
    ? " · " + W.provisional + " · " + say("filed_of", data.progress)
    : "";
  return where + " · " + length + progress;
}

// An entrant's number in a standings row: a team's, or a player's in an individual event.
function entrant(row) {
  return row.player !== undefined ? row.player : row.team;
}

// The round clock (the element #clock, with .clock-time and .clock-note inside): the
// server's time left at each fetch, counted down here every second in between; the
// warnings at 5 minutes and at the end as the server gives them (same thresholds).
let clockData = null;
let clockAt = 0;

function setClock(clock) {
  clockData = clock || null;
  clockAt = Date.now();
  tickClock();
}

function mmss(seconds) {
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return minutes + ":" + (rest < 10 ? "0" : "") + rest;
}

function tickClock() {
  const box = document.getElementById("clock");
  if (!box) return;
  box.hidden = !clockData;
  if (!clockData) return;
  const time = box.querySelector(".clock-time");
  const note = box.querySelector(".clock-note");
  if (clockData.round === null) {
    time.textContent = mmss(clockData.left_seconds);
    note.textContent = say("clock_not_started", {minutes: clockData.minutes});
    box.className = "clock stopped";
    box.dataset.left = String(clockData.left_seconds);
    box.dataset.warning = "";
    return;
  }
  const gone = clockData.running ? Math.floor((Date.now() - clockAt) / 1000) : 0;
  const left = Math.max(0, clockData.left_seconds - gone);
  const warning = left === 0 ? "end" : left <= 300 ? "5min" : "";
  time.textContent = warning === "end" ? W.clock_end : mmss(left);
  note.textContent = warning === "end" ? say("clock_end_note", {round: clockData.round}) : warning ? W.clock_five_minutes
    : clockData.paused ? W.clock_paused : say("round_n", {round: clockData.round});
  box.className = "clock" + (warning ? " clock-" + warning : "") + (clockData.paused ? " paused" : "");
  box.dataset.left = String(left);
  box.dataset.warning = warning;
}

setInterval(tickClock, 250);  // a quarter second: the shown second turns within 0.25 s of the real one

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
