// ui.js — the Python checker page's behaviour (built by gm/service/browser_check.py).
//
// The page carries, as data blocks that never run: Pyodide's npm tarball
// exactly as the registry serves it (#pyodide), a zip of the Python to run
// (#python) and its settings (#config: the entry module, the scripts'
// names, the French words). This script unpacks the tarball in memory,
// runs Pyodide's two scripts as inline scripts (the page's CSP allows each
// by its SHA-256), and answers Pyodide's requests for its files from the
// tarball: nothing is ever fetched. Then it calls the entry module's
// main(argv, stdin) -> (exit code, text) as `gm check-post thread -` is
// called, and shows the verdict first, then every line as printed. Every
// text shown is set with textContent, never parsed as HTML.
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const CONFIG = JSON.parse($("config").textContent);
  const WORDS = CONFIG.strings;
  const VERDICT = { 0: "ok", 1: "bad", 3: "missing" };
  const LINE_KINDS = [
    ["bad", "DIFFÉRENT : "],
    ["missing", "NON VÉRIFIÉ : "],
    ["ok", "OK : "],
    ["note", "NOTE : "],
    ["summary", "BILAN : "],
  ];
  const SUMMARY = "BILAN : ";

  function status(text) {
    $("status").textContent = text;
  }

  function base64(id) {
    const text = $(id).textContent.trim();
    if (Uint8Array.fromBase64) return Uint8Array.fromBase64(text);
    const binary = atob(text);
    const out = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
    return out;
  }

  async function gunzip(bytes) {
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  }

  // The files of a (ustar) tar archive, by name: what `npm pack` writes.
  function untar(tar) {
    const files = new Map();
    const ascii = new TextDecoder("ascii");
    const field = (at, size) => ascii.decode(tar.subarray(at, at + size)).replace(/\0.*$/s, "");
    for (let at = 0; at + 512 <= tar.length; ) {
      const name = field(at, 100);
      if (!name) break;
      const size = parseInt(field(at + 124, 12).trim() || "0", 8);
      const prefix = field(at + 345, 155);
      const type = field(at + 156, 1);
      if (type === "" || type === "0") files.set(prefix ? `${prefix}/${name}` : name, tar.subarray(at + 512, at + 512 + size));
      at += 512 + Math.ceil(size / 512) * 512;
    }
    return files;
  }

  // Pyodide asks for its files with fetch(); they are answered from the
  // tarball, and any other request is refused here, before any network.
  function serve(files) {
    const index = CONFIG.pyodide.index;
    const types = { ".wasm": "application/wasm", ".zip": "application/zip", ".json": "application/json" };
    globalThis.fetch = async function (input) {
      const url = String(input instanceof Request ? input.url : input);
      const name = url.startsWith(index) ? "package/" + url.slice(index.length) : null;
      if (name === null || !files.has(name)) throw new TypeError(`this page loads nothing: ${url}`);
      const type = types[name.slice(name.lastIndexOf("."))] || "application/octet-stream";
      return new Response(files.get(name), { headers: { "Content-Type": type } });
    };
  }

  function run(files, name) {
    const script = document.createElement("script");
    script.textContent = new TextDecoder("utf-8").decode(files.get("package/" + name));
    document.body.append(script); // runs now; the CSP allows it by its SHA-256
  }

  async function start() {
    // An empty WebAssembly module first: where the browser refuses to compile
    // one (no WebAssembly, or a CSP without 'wasm-unsafe-eval'), Pyodide
    // would wait for ever; the player is told at once instead.
    await WebAssembly.instantiate(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
    const files = untar(await gunzip(base64("pyodide")));
    serve(files);
    for (const name of CONFIG.pyodide.scripts) run(files, name);
    if (typeof globalThis.loadPyodide !== "function") throw new Error("Pyodide's scripts did not run");
    const lock = JSON.parse(new TextDecoder("utf-8").decode(files.get("package/pyodide-lock.json")));
    const pyodide = await globalThis.loadPyodide({
      indexURL: CONFIG.pyodide.index,
      // no package to load: the page's own Python is in #python
      lockFileContents: { info: lock.info, packages: {} },
      stdin: () => null,
    });
    pyodide.unpackArchive(await gunzip(base64("python")), "zip", { extractDir: CONFIG.path });
    pyodide.pyimport("sys").path.insert(0, CONFIG.path);
    const entry = pyodide.pyimport(CONFIG.entry);
    return { pyodide, main: entry.main };
  }

  const ready = start();
  // For the tests and the benchmark: the interpreter, and the check itself.
  globalThis.gmPage = {
    ready: ready.then((r) => r.pyodide),
    async check(argv, stdin) {
      const { main } = await ready;
      const result = main(argv, stdin);
      try {
        const [code, text] = result.toJs();
        return { code, text };
      } finally {
        result.destroy();
      }
    },
  };

  globalThis.gmPage.ready.catch(() => {}); // said on the status line below

  function kindOf(line) {
    for (const [kind, head] of LINE_KINDS) if (line.startsWith(head)) return kind;
    return "other";
  }

  function show(code, text) {
    const kind = VERDICT[code] || "error";
    const lines = text.split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    $("result").hidden = false;
    $("result").dataset.code = String(code);
    $("verdict").className = "verdict " + kind;
    $("verdict-word").textContent = WORDS["verdict_" + kind];
    $("verdict-help").textContent = WORDS["verdict_" + kind + "_help"];
    const summary = lines.filter((l) => l.startsWith(SUMMARY));
    // an error is said on one line and no summary: that line is the verdict's reason
    $("summary").textContent = (summary.length ? summary : kind === "error" ? lines : []).join("\n");
    $("lines").replaceChildren(
      ...lines.map((line) => {
        const li = document.createElement("li");
        li.className = kindOf(line);
        li.textContent = line;
        return li;
      }),
    );
  }

  async function check() {
    const text = $("thread").value;
    if (!text.trim()) {
      status(WORDS.empty);
      return;
    }
    const button = $("check");
    button.disabled = true;
    status(WORDS.status_checking);
    // let the status line be drawn: the check runs on this thread
    await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
    try {
      const { code, text: report } = await globalThis.gmPage.check(["thread", "-"], text);
      show(code, report);
      status(WORDS.status_done);
      $("result").scrollIntoView();
    } catch (err) {
      status(WORDS.status_crashed + String(err && err.message ? err.message : err));
    } finally {
      button.disabled = false;
    }
  }

  async function load(file) {
    $("thread").value = await file.text();
    status(WORDS.status_file + file.name);
  }

  $("check").addEventListener("click", check);
  $("file").addEventListener("change", (event) => {
    if (event.target.files.length) load(event.target.files[0]);
  });
  const area = $("thread");
  area.addEventListener("dragover", (event) => {
    event.preventDefault();
    area.classList.add("drop");
  });
  area.addEventListener("dragleave", () => area.classList.remove("drop"));
  area.addEventListener("drop", (event) => {
    event.preventDefault();
    area.classList.remove("drop");
    if (event.dataTransfer.files.length) load(event.dataTransfer.files[0]);
  });
  ready.then(
    () => {
      $("check").disabled = false;
      status(WORDS.status_ready);
    },
    (err) => status(WORDS.status_failed + String(err && err.message ? err.message : err)),
  );
})();
