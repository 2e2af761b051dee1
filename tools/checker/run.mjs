// The browser checker's script, run by Node as `python gm_check.py` runs:
//
//   node tools/checker/run.mjs thread FILE... [--seed S] [--seal HEX]... [--format F]
//   node tools/checker/run.mjs --batch VECTORS.jsonl
//
// It loads the same files as the page (order.txt, one function scope) and
// calls gmCheck.run(argv, io), so the tests can compare its output with
// gm_check.py's line for line. `--batch` replays recorded calls, one JSON
// object per line {args, stdin, files: {path: text}}, and prints one JSON
// line {code, stdout, stderr} per call (files are virtual: nothing is read
// from disk but the vectors).
import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));

function load() {
  const order = fs.readFileSync(path.join(here, "order.txt"), "utf8").split(/\s+/).filter(Boolean);
  let body = "";
  for (const name of order) {
    const file = path.join(here, name);
    if (fs.existsSync(file)) body += `// ===== ${name} =====\n${fs.readFileSync(file, "utf8")}\n`;
  }
  const text = '(function (globalThis) {\n"use strict";\n' + body + "})(globalThis);\n";
  new vm.Script(text, { filename: "gm-check.js" }).runInThisContext();
  if (!globalThis.gmCheck || !globalThis.gmCheck.run) throw new Error("gmCheck.run is not defined (api.js missing?)");
  return globalThis.gmCheck;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

function diskIO(stdinText) {
  return {
    stdin: stdinText,
    read(p) {
      if (p === "-") return stdinText ?? "";
      let bytes;
      try {
        bytes = fs.readFileSync(p);
      } catch (err) {
        throw Object.assign(new Error(`[Errno 2] No such file or directory: '${p}'`), { pyType: "OSError" });
      }
      try {
        return utf8.decode(bytes);
      } catch (err) {
        throw Object.assign(new Error(`${p}: not UTF-8 text (invalid start byte)`), { pyType: "Unreadable" });
      }
    },
  };
}

function virtualIO(stdinText, files) {
  return {
    stdin: stdinText,
    read(p) {
      if (p === "-") return stdinText ?? "";
      if (!(p in files)) throw Object.assign(new Error(`[Errno 2] No such file or directory: '${p}'`), { pyType: "OSError" });
      return files[p];
    },
  };
}

const argv = process.argv.slice(2);
const gm = load();
if (argv[0] === "--batch") {
  const lines = fs.readFileSync(argv[1], "utf8").split("\n").filter(Boolean);
  const out = [];
  for (const line of lines) {
    const v = JSON.parse(line);
    let result;
    try {
      result = await gm.run(v.args, virtualIO(v.stdin ?? null, v.files ?? {}));
    } catch (err) {
      result = { code: -1, stdout: [], stderr: [`CRASH: ${err && err.stack ? err.stack : err}`] };
    }
    out.push(JSON.stringify(result));
  }
  process.stdout.write(out.join("\n") + (out.length ? "\n" : ""));
} else {
  const stdinText = argv.includes("-") ? fs.readFileSync(0, "utf8") : null;
  const result = await gm.run(argv, diskIO(stdinText));
  if (result.stdout.length) process.stdout.write(result.stdout.join("\n") + "\n");
  if (result.stderr.length) process.stderr.write(result.stderr.join("\n") + "\n");
  process.exitCode = result.code;
}
