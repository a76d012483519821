// Writes fastcore.js: rp2040js's CortexM0Core.executeInstruction with its decoder turned
// from one chain of about a hundred `else if` tests into a table look-up.
//
//   node host_tools/rp2emu/fastcore_gen.js [--check]
//
// fastcore.js is written here, on the machine, from the rp2040js npm installed (make
// rp2emu, and the web page's build, run this): it is rp2040js's code, so it is not kept in
// the repository (.gitignore), as node_modules is not.
//
// rp2040js decodes each instruction by testing the opcode against each instruction's
// pattern in turn, a hundred tests for the last ones (a store is the 75th): most of what
// the emulated core spent per instruction.  This reads the installed rp2040js's
// cortex-m0-core.js (the version package-lock.json pins) and keeps every branch of that
// chain as it is, in the same order: the prologue, each test, each branch's body, the
// epilogue, character for character.  What changes is which tests are made: for each of
// the 65,536 first halfwords, a table says which branches can match it (a branch whose
// test is false for that halfword whatever the second halfword is, is left out: its
// test would be false), and that chain of branches, a function of its own, is called
// through the table.  The same
// instructions, the same effects, the same cycles: only tests known to be false are
// skipped.  A test that reads the second halfword (opcode2) stays in the chain for every
// first halfword its other conditions allow.
//
// --check: exit 1 when fastcore.js is not what this would write (rp2040js changed).
'use strict';

const fs = require('fs');
const path = require('path');

const HERE = __dirname;
const OUT = path.join(HERE, 'fastcore.js');

function coreSource() {
  // the emulator's own install first, else the web page's (both lock files pin one version)
  const main = require.resolve('rp2040js', { paths: [HERE, path.join(HERE, '..', 'web')] });
  const file = path.join(path.dirname(main), 'cortex-m0-core.js');
  const version = JSON.parse(fs.readFileSync(path.join(path.dirname(main), '..', '..', 'package.json'), 'utf8')).version;
  return { text: fs.readFileSync(file, 'utf8'), version };
}

/** The index just past the bracket that closes the one at `open` (comments and strings skipped). */
function closing(text, open) {
  const pairs = { '(': ')', '{': '}', '[': ']' };
  const stack = [];
  let i = open;
  while (i < text.length) {
    const c = text[i];
    if (c === '/' && text[i + 1] === '/') {
      i = text.indexOf('\n', i);
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      i = text.indexOf('*/', i) + 2;
      continue;
    }
    if (c === "'" || c === '"') {
      i++;
      while (text[i] !== c) i += text[i] === '\\' ? 2 : 1;
      i++;
      continue;
    }
    if (c === '`') { // template literal: its ${...} hold balanced brackets
      i++;
      while (text[i] !== '`') {
        if (text[i] === '\\') i += 2;
        else if (text[i] === '$' && text[i + 1] === '{') i = closing(text, i + 1);
        else i++;
      }
      i++;
      continue;
    }
    if (pairs[c]) stack.push(pairs[c]);
    else if (c === ')' || c === '}' || c === ']') {
      if (stack.pop() !== c) throw new Error(`unbalanced ${c} at ${i}`);
      if (!stack.length) return i + 1;
    }
    i++;
  }
  throw new Error('no closing bracket');
}

/** Skips white space and // comments from i. */
function skip(text, i) {
  for (;;) {
    while (/\s/.test(text[i])) i++;
    if (text.startsWith('//', i)) i = text.indexOf('\n', i);
    else return i;
  }
}

/** The top-level && operands of a condition's text. */
function conjuncts(cond) {
  const parts = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < cond.length; i++) {
    const c = cond[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (depth === 0 && c === '&' && cond[i + 1] === '&') {
      parts.push(cond.slice(start, i));
      start = i + 2;
      i++;
    } else if (depth === 0 && c === '|' && cond[i + 1] === '|') return [cond]; // not a plain conjunction
  }
  parts.push(cond.slice(start));
  return parts;
}

function generate() {
  const { text, version } = coreSource();
  const head = text.indexOf('\n    executeInstruction() {');
  if (head < 0) throw new Error('no executeInstruction in cortex-m0-core.js');
  const open = text.indexOf('{', head);
  const end = closing(text, open);
  const method = text.slice(open + 1, end - 1);
  const start = method.indexOf('let deltaCycles = 1;');
  const first = start < 0 ? -1 : start + method.slice(start).search(/\n {8}if \(/);
  const tail = method.indexOf('\n        this.cycles += deltaCycles;');
  if (first < 0 || tail < 0) throw new Error('executeInstruction is not the chain this expects');
  const prologue = method.slice(0, first);
  const epilogue = method.slice(tail);
  const branches = []; // {cond, body, label}
  let i = first + 1;
  let finalBody = null;
  let label = '';
  for (;;) {
    i = skip(method, i);
    if (method.startsWith('else', i)) {
      i = skip(method, i + 4);
      if (!method.startsWith('if', i)) { // the last else
        const close = closing(method, i);
        finalBody = method.slice(i, close);
        i = close;
        break;
      }
    } else if (branches.length) break;
    if (!method.startsWith('if', i)) throw new Error(`expected if at ${method.slice(i, i + 40)}`);
    const condOpen = method.indexOf('(', i);
    const condClose = closing(method, condOpen);
    const cond = method.slice(condOpen + 1, condClose - 1);
    const bodyOpen = skip(method, condClose);
    if (method[bodyOpen] !== '{') throw new Error('a branch without braces');
    const bodyClose = closing(method, bodyOpen);
    const before = method.lastIndexOf('//', condOpen);
    label = before > 0 ? method.slice(before + 2, method.indexOf('\n', before)).trim() : '';
    branches.push({ cond, body: method.slice(bodyOpen, bodyClose), label });
    i = bodyClose;
  }
  if (skip(method, i) !== skip(method, tail)) throw new Error('something between the chain and the epilogue');
  if (finalBody === null) throw new Error('the chain has no last else');
  for (const branch of branches) {
    branch.wide = /\bopcode2\b/.test(branch.cond);
    // what the first halfword alone decides: the operands that do not read opcode2
    const alone = conjuncts(branch.cond).filter((part) => !/\bopcode2\b/.test(part));
    branch.test = new Function('opcode', `return !!(${alone.length ? alone.join(' && ') : 'true'});`);
  }
  // for each first halfword, the branches whose test can be true, in order, up to the
  // first one decided by the first halfword alone (its test is then true: the end)
  const groups = new Map(); // key -> index
  const sequences = [];
  const table = new Uint8Array(65536);
  for (let opcode = 0; opcode < 65536; opcode++) {
    const sequence = [];
    for (let b = 0; b < branches.length; b++) {
      if (!branches[b].test(opcode)) continue;
      sequence.push(b);
      if (!branches[b].wide) break;
    }
    const key = sequence.join(',');
    let index = groups.get(key);
    if (index === undefined) {
      index = sequences.length;
      groups.set(key, index);
      sequences.push(sequence);
    }
    table[opcode] = index;
  }
  if (sequences.length > 255) throw new Error('too many groups for a byte table');
  const runs = []; // the table as [value, count] runs
  for (let opcode = 0; opcode < 65536;) {
    let n = 1;
    while (opcode + n < 65536 && table[opcode + n] === table[opcode]) n++;
    runs.push(table[opcode], n);
    opcode += n;
  }
  const indent = (code, by) => code.split('\n').map((line) => (line.trim() ? ' '.repeat(by) + line : line)).join('\n');
  const cases = sequences.map((sequence, index) => {
    const parts = [];
    let closed = false;
    sequence.forEach((b, k) => {
      const branch = branches[b];
      const last = k === sequence.length - 1;
      if (last && !branch.wide) { // decided: its test is true
        parts.push(`${k ? 'else ' : ''}${branch.body.trim()} // ${branch.label}`);
        closed = true;
      } else parts.push(`${k ? 'else ' : ''}if (${branch.cond}) ${branch.body.trim()} // ${branch.label}`);
    });
    if (!closed) parts.push(`${sequence.length ? 'else ' : ''}${finalBody.trim()} // not implemented`);
    return `            case ${index}:\n${indent(parts.join('\n'), 16).replace(/^ {16}/, '                ')}\n                break;`;
  });
  {
    if (!prologue.includes('let deltaCycles = 1;')) throw new Error('the prologue does not start deltaCycles at 1');
    const handlers = cases.map((text) => `    function (opcode, opcode2, opcodePC) {\n        let deltaCycles = 1;\n${text.replace(/^ +case \d+:\n/, '').replace(/\n +break;$/, '')}\n        return deltaCycles;\n    }`);
    const head = prologue.replace('let deltaCycles = 1;', 'const deltaCycles = HANDLERS[DECODE[opcode]].call(this, opcode, opcode2, opcodePC);');
    return `// GENERATED by host_tools/rp2emu/fastcore_gen.js from rp2040js ${version}'s cortex-m0-core.js
// (MIT License, Copyright (c) 2021 Uri Shaked) as npm installed it: not in the repository.
// Its executeInstruction, every branch as rp2040js wrote it, chosen by a table on the
// first halfword instead of a hundred tests in turn (fastcore_gen.js says why it is exact).
'use strict';

const RP2040JS_VERSION = ${JSON.stringify(version)};
const LOG_NAME = 'CortexM0Core';
const spRegister = 13;
const pcRegister = 15;
function signExtend8(value) { return (value << 24) >> 24; }
function signExtend16(value) { return (value << 16) >> 16; }
// which chain of branches each first halfword takes: [group, count] runs over 0..65535
const RUNS = ${JSON.stringify(runs)};
const DECODE = new Uint8Array(65536);
for (let i = 0, at = 0; i < RUNS.length; i += 2) { DECODE.fill(RUNS[i], at, at + RUNS[i + 1]); at += RUNS[i + 1]; }
// each group's chain, a function of its own (V8 optimizes a small function soon after
// the Worker starts; one function with all of them took a second of a boot to get there)
const HANDLERS = [
${handlers.join(',\n')}
];
function executeInstruction() {${head}${epilogue}
}
module.exports = { executeInstruction, RP2040JS_VERSION };
`;
  }
}

function main() {
  const text = generate();
  if (process.argv.includes('--check')) {
    const current = fs.existsSync(OUT) ? fs.readFileSync(OUT, 'utf8') : '';
    if (current !== text) {
      process.stderr.write('fastcore.js is not what fastcore_gen.js writes from the installed rp2040js: run it again\n');
      process.exit(1);
    }
    return;
  }
  // whole or not at all: two test workers may write it at once, a reader never sees half
  const part = `${OUT}.${process.pid}.part`;
  fs.writeFileSync(part, text);
  fs.renameSync(part, OUT);
}

main();
