// The JavaScript half of tests/tools/checker/test_read_node.py: reads the
// cases of a JSON-lines file, runs tools/checker/read.js on each (with py.js
// and core.js, as the page assembles them) and prints one JSON line per case,
// shaped as read_corpus.py's `python_result` shapes gm_check.py's answer.
//
//   node tests/tools/checker/read_driver.mjs CASES.jsonl > RESULTS.jsonl
//
// A case: {op: "lines" | "source" | "detect" | "unescape" | "entities" | "invisible", text, fmt, name, start}.
import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const folder = path.resolve(here, "../../../tools/checker");

function load() {
  const part = (name) => fs.readFileSync(path.join(folder, name), "utf8");
  // core.js gives Unreadable; without it (c-core not merged yet) a stand-in
  const core = fs.existsSync(path.join(folder, "core.js")) ? part("core.js") : "class Unreadable extends Error {}\n";
  const body =
    part("py.js") +
    "\n" +
    core +
    "\n" +
    part("read.js") +
    "\nglobalThis.__read = { readLines, readSource, detectFormat, pyUnescape, codeOffsetToCp, _HTML5, _isInvisible, _INVISIBLE };\n";
  new vm.Script('(function (globalThis) {\n"use strict";\n' + body + "})(globalThis);\n", {
    filename: "read-driver.js",
  }).runInThisContext();
  return globalThis.__read;
}

const rd = load();

function line(li) {
  if (li === null) return null;
  return {
    no: li.no,
    text: li.text,
    codes: li.codes.map(([a, b]) => [rd.codeOffsetToCp(li.text, a), rd.codeOffsetToCp(li.text, b)]),
    code_texts: li.codeTexts(),
    cells: li.cells === null ? null : [...li.cells],
  };
}

function post(p) {
  return {
    source: p.source,
    index: p.index,
    fmt: p.fmt,
    kind: p.kind,
    key: p.key,
    heading: line(p.heading),
    body: p.body.map(line),
    footer: line(p.footer),
    problems: p.problems,
    obsolete: p.obsolete,
    number: p.number,
    game: p.game,
    name: p.name(),
    at: p.at(),
    at_heading: p.at(p.heading),
    signature: p.signature(),
  };
}

function run(c) {
  switch (c.op) {
    case "lines": {
      const [fmt, lines, problems] = rd.readLines(c.text, c.fmt);
      return { fmt, lines: lines.map(line), problems };
    }
    case "source": {
      const s = rd.readSource(c.text, c.name, c.fmt, c.start);
      return {
        name: s.name,
        fmt: s.fmt,
        posts: s.posts.map(post),
        outside: s.outside.map(line),
        problems: s.problems,
        chronicle: Object.fromEntries(s.chronicle),
      };
    }
    case "detect":
      return rd.detectFormat(c.text);
    case "unescape":
      return rd.pyUnescape(c.text);
    case "entities":
      return Object.fromEntries(rd._HTML5);
    case "invisible": {
      // every code point read.js calls invisible, as ranges, and the names it prints (« ? » for the others)
      const ranges = [];
      for (let code = 0; code < 0x110000; code++) {
        if (!rd._isInvisible(code)) continue;
        if (ranges.length && ranges[ranges.length - 1][1] === code - 1) ranges[ranges.length - 1][1] = code;
        else ranges.push([code, code]);
      }
      const names = {};
      for (const [a, b] of ranges) {
        for (let code = a; code <= b; code++) if (rd._INVISIBLE.names.has(code)) names[code] = rd._INVISIBLE.names.get(code);
      }
      return { ranges, names };
    }
    default:
      throw new Error(`unknown op ${c.op}`);
  }
}

const out = [];
for (const text of fs.readFileSync(process.argv[2], "utf8").split("\n")) {
  if (!text) continue;
  const c = JSON.parse(text);
  let result;
  try {
    result = { ok: run(c) };
  } catch (err) {
    if (!(err instanceof Error) || (!err.pyType && err.constructor.name !== "Unreadable")) {
      result = { crash: String(err && err.stack ? err.stack : err) };
    } else {
      result = { error: [err.pyType || err.constructor.name, err.message] };
    }
  }
  out.push(JSON.stringify(result));
}
process.stdout.write(out.join("\n") + (out.length ? "\n" : ""));
