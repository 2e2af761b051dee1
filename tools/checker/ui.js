// ui.js — the checker page's behaviour: the paste boxes, the « Vérifier »
// button, the verdict and its lines, the FR/EN toggle (kept in
// location.hash: nothing is stored) and the live SHA-256 of the page's own
// script. It only calls the port through gmCheck.run(argv, io), exactly as
// `python gm_check.py thread …` is called, with the pasted texts as virtual
// files: what the page says is what gm_check.py says. Every text shown is
// set with textContent, never parsed as HTML. STRINGS (strings.json) is put
// in front of this file by gm/service/checker_page.py.

const $ = (id) => document.getElementById(id);
const KINDS = [
  // [kind, French head, separator before the English half]
  ["bad", "DIFFÉRENT : ", " / MISMATCH: "],
  ["missing", "NON VÉRIFIÉ : ", " / NOT CHECKED: "],
  ["ok", "OK : ", " / "],
  ["note", "NOTE : ", " / "],
];
const SUMMARY = ["BILAN : ", " / SUMMARY: "];
const VERDICT = { 0: "ok", 1: "bad", 3: "missing" };

let lang = "fr";
let last = null; // the last result, shown again in the other language
const pairs = new Map(); // a report line → [kind, French, English], as the port's Report made it

function words() {
  return STRINGS[lang];
}

// The port's Report builds each line from a (French, English) pair; the page
// shows one half. Listening to the pairs as they are made is exact; splitting
// the printed line (below) is only the fallback for a line made elsewhere.
function listenToReport() {
  const Report = globalThis.gmCheck && globalThis.gmCheck.Report;
  if (!Report || !Report.prototype) return;
  for (const [kind, head, sep] of KINDS) {
    const base = Report.prototype[kind];
    if (typeof base !== "function") continue;
    Report.prototype[kind] = function (fr, en) {
      const mid = kind === "bad" || kind === "missing" ? sep : " / ";
      pairs.set(`${head}${fr}${mid}${en}`, [kind, fr, en]);
      return base.call(this, fr, en);
    };
  }
}

function splitLine(line) {
  if (pairs.has(line)) return pairs.get(line);
  for (const [kind, head, sep] of KINDS) {
    if (!line.startsWith(head)) continue;
    const rest = line.slice(head.length);
    // the separator nearest the middle: both halves say the same thing
    let best = -1;
    for (let i = rest.indexOf(sep); i >= 0; i = rest.indexOf(sep, i + 1)) {
      if (best < 0 || Math.abs(i - rest.length / 2) < Math.abs(best - rest.length / 2)) best = i;
    }
    if (best < 0) return [kind, rest, rest];
    return [kind, rest.slice(0, best), rest.slice(best + sep.length)];
  }
  return ["note", line, line];
}

function half(pair) {
  return lang === "en" ? pair[2] : pair[1];
}

function applyLanguage() {
  lang = location.hash === "#en" ? "en" : "fr";
  document.documentElement.lang = lang;
  document.title = words().title;
  for (const el of document.querySelectorAll("[data-s]")) el.textContent = words()[el.dataset.s];
  $("lang").setAttribute("href", words().lang_other_hash);
  if (last) show(last);
}

async function showDigest() {
  const text = document.querySelector("script").textContent;
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  const value = $("digest-value");
  value.removeAttribute("data-s");
  value.textContent = Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("");
}

function addPost() {
  const boxes = $("posts");
  const first = boxes.querySelector("label.post");
  const label = first.cloneNode(true);
  label.querySelector(".no").textContent = String(boxes.children.length + 1);
  const area = label.querySelector("textarea");
  area.value = "";
  boxes.appendChild(label);
  area.focus();
}

function item(kind, text) {
  const li = document.createElement("li");
  li.className = kind;
  if (kind !== "none") {
    const head = document.createElement("span");
    head.className = "kind";
    head.textContent = words()["kind_" + kind];
    li.append(head);
  }
  li.append(document.createTextNode(text));
  return li;
}

function show(result) {
  const { code, stdout, stderr } = result;
  const kind = VERDICT[code] || "error";
  $("result").hidden = false;
  $("result").dataset.code = String(code);
  $("verdict").className = "verdict " + kind;
  $("verdict-word").textContent = words()["verdict_" + kind];
  $("verdict-help").textContent = words()["verdict_" + kind + "_help"];
  const lines = [];
  let summary = "";
  for (const line of stdout) {
    if (line.startsWith(SUMMARY[0])) {
      const i = line.indexOf(SUMMARY[1]);
      summary = i < 0 ? line : lang === "en" ? line.slice(i + " / ".length) : line.slice(0, i);
    } else {
      lines.push(splitLine(line));
    }
  }
  if (kind === "error") summary = (stderr || []).join("\n") || result.message || "";
  $("summary").textContent = summary;
  const all = $("lines");
  const unchecked = $("unchecked-lines");
  all.replaceChildren(...lines.map((p) => item(p[0], half(p))));
  // what differs first, then what could not be checked: the lines a player looks for
  const bad = lines.filter((p) => p[0] === "bad");
  $("bad-title").hidden = $("bad-lines").hidden = !bad.length;
  $("bad-lines").replaceChildren(...bad.map((p) => item("bad", half(p))));
  const missing = lines.filter((p) => p[0] === "missing");
  if (missing.length) unchecked.replaceChildren(...missing.map((p) => item("missing", half(p))));
  else if (kind !== "error") unchecked.replaceChildren(item("none", words().unchecked_none));
  else unchecked.replaceChildren();
}

function virtualFiles(files) {
  return {
    stdin: null,
    read(path) {
      if (!Object.prototype.hasOwnProperty.call(files, path)) {
        throw Object.assign(new Error(`[Errno 2] No such file or directory: '${path}'`), { pyType: "OSError" });
      }
      return files[path];
    },
  };
}

async function check() {
  const button = $("check");
  const files = {};
  const argv = ["thread"];
  document.querySelectorAll(".post-text").forEach((area, i) => {
    if (!area.value.trim()) return;
    const name = `message-${i + 1}`;
    files[name] = area.value;
    argv.push(name);
  });
  if (argv.length === 1) {
    last = { code: 2, stdout: [], stderr: [], message: words().empty };
    show(last);
    return;
  }
  argv.push("--format", $("format").value);
  const seed = $("seed").value.trim();
  if (seed) argv.push(`--seed=${seed}`); // one argument: a seed may begin with « - »
  if ($("reply").value.trim()) {
    files["reponse-privee"] = $("reply").value;
    argv.push("--reply", "reponse-privee");
  }
  button.disabled = true;
  button.textContent = words().checking;
  pairs.clear();
  try {
    last = await globalThis.gmCheck.run(argv, virtualFiles(files));
  } catch (err) {
    last = { code: -1, stdout: [], stderr: [String(err && err.message ? err.message : err)] };
  } finally {
    button.disabled = false;
    button.textContent = words().check;
  }
  show(last);
  $("result").scrollIntoView();
}

listenToReport();
applyLanguage();
window.addEventListener("hashchange", applyLanguage);
$("add").addEventListener("click", addPost);
$("check").addEventListener("click", check);
showDigest();
