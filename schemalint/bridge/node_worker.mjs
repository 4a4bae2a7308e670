// The Node worker of schemalint's runtime bridge (docs/runtime-bridge.md, docs/typescript.md).
//
// Started by schemalint.loaders.typescript.node.NodeWorker as `node node_worker.mjs` with
// SCHEMALINT_BRIDGE_FDS="IN,OUT": requests arrive on file descriptor IN, answers leave on OUT,
// one JSON object per line. Standard input is an empty pipe never written nor closed (a stdio server
// started at import waits instead of exiting) and standard output is the parent's
// stderr pipe, so nothing the imported module prints or reads can touch the protocol.
//
// It imports a module of the user's project (TypeScript through the project's own tsx, or
// Node's type stripping) and lists its tools: AI SDK tools, MCP TypeScript SDK servers
// (through the SDK's own in-memory client), bare zod object schemas. Every framework package
// (ai, zod, zod-to-json-schema, @modelcontextprotocol/sdk) is resolved from the module's own
// folder: schemalint ships none of them. Tool bodies are never called; `validate` runs the
// runtime's own schema check (AI SDK: asSchema(schema).validate, MCP: safeParseAsync, zod:
// safeParseAsync) on a call schemalint generated.

import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

import { evaluator, findSites, mayHoldInlineTools, relativeUrl } from "./inline_tools.mjs";

const [IN_FD, OUT_FD] = String(process.env.SCHEMALINT_BRIDGE_FDS || "").split(",").map(Number);
delete process.env.SCHEMALINT_BRIDGE_FDS;
const PARENT = process.ppid;

function send(message) {
  let line;
  try {
    line = JSON.stringify(message);
  } catch (err) {
    line = JSON.stringify({ id: message.id, ok: false, error: `the answer could not be written as JSON: ${err}` });
  }
  const data = Buffer.from(line + "\n", "utf8");
  let done = 0;
  while (done < data.length) {
    try {
      done += fs.writeSync(OUT_FD, data, done);
    } catch (err) {
      if (err.code === "EAGAIN") continue;
      process.exit(3); // the parent is gone
    }
  }
}

// -- values as JSON ----------------------------------------------------------------------

function jsonable(value, problems, pointer = "", depth = 0, seen = new Set()) {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (Number.isFinite(value)) return value;
    const text = Number.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity";
    problems.push(`${pointer || "(root)"} (${text})`);
    return text;
  }
  if (value === undefined) return null;
  if (typeof value === "bigint") {
    problems.push(`${pointer || "(root)"} (bigint)`);
    return `<non-JSON value: bigint ${value}>`;
  }
  if (typeof value !== "object" || depth > 200 || seen.has(value)) {
    const what = typeof value === "object" ? (depth > 200 ? "nested too deeply" : "cycle") : typeof value;
    problems.push(`${pointer || "(root)"} (${what})`);
    return `<non-JSON value: ${what}>`;
  }
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((v, i) => jsonable(v, problems, `${pointer}/${i}`, depth + 1, seen));
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      const name = value.constructor?.name || "object";
      problems.push(`${pointer || "(root)"} (${name} object)`);
      return `<non-JSON value: ${name}>`;
    }
    const out = {};
    for (const [key, sub] of Object.entries(value)) {
      if (sub === undefined) continue;
      out[key] = jsonable(sub, problems, `${pointer}/${escapeToken(key)}`, depth + 1, seen);
    }
    return out;
  } finally {
    seen.delete(value);
  }
}

const escapeToken = (t) => String(t).replaceAll("~", "~0").replaceAll("/", "~1");

// -- packages of the user's project ------------------------------------------------------

function packageDir(name, fromDir) {
  let dir = fromDir;
  for (;;) {
    const candidate = path.join(dir, "node_modules", ...name.split("/"));
    if (fs.existsSync(path.join(candidate, "package.json"))) return candidate;
    const up = path.dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

function pickTarget(target) {
  if (typeof target === "string") return target;
  if (Array.isArray(target)) {
    for (const t of target) {
      const got = pickTarget(t);
      if (got) return got;
    }
    return null;
  }
  if (target && typeof target === "object") {
    for (const cond of ["node", "import", "module", "default", "require"]) {
      if (cond in target) {
        const got = pickTarget(target[cond]);
        if (got) return got;
      }
    }
  }
  return null;
}

// The file URL of `name/subpath` as an ESM import from `fromDir` would find it (package
// "exports" with the node/import/default conditions, else "module"/"main"), or null.
function resolvePackage(name, subpath, fromDir) {
  const dir = packageDir(name, fromDir);
  if (dir === null) return null;
  let meta;
  try {
    meta = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
  } catch {
    return null;
  }
  let rel = null;
  const key = subpath ? `./${subpath}` : ".";
  const exp = meta.exports;
  if (exp !== undefined) {
    const table = typeof exp === "string" || Array.isArray(exp) || !Object.keys(exp).some((k) => k.startsWith("."))
      ? { ".": exp } : exp;
    if (key in table) rel = pickTarget(table[key]);
    else {
      for (const [pattern, target] of Object.entries(table)) {
        const star = pattern.indexOf("*");
        if (star < 0) continue;
        const head = pattern.slice(0, star), tail = pattern.slice(star + 1);
        if (key.startsWith(head) && key.endsWith(tail) && key.length >= head.length + tail.length) {
          const got = pickTarget(target);
          if (got) rel = got.replace("*", key.slice(head.length, key.length - tail.length));
          break;
        }
      }
    }
  } else {
    rel = subpath ? `./${subpath}` : meta.module || meta.main || "./index.js";
  }
  if (!rel) return null;
  const file = path.resolve(dir, rel);
  return fs.existsSync(file) ? { url: pathToFileURL(file).href, version: meta.version || "", dir } : null;
}

const packageCache = new Map();

// `fn()` (awaited when it returns a promise) with Node's source maps off: tsx turns them on, and
// Node then reads the map of every file a package loads and measures each of its lines (0.06 s for
// typescript.js alone). A package's own frames need no mapping; the project's modules, imported
// later, are still mapped to their TypeScript lines.
function withoutSourceMaps(fn) {
  const maps = process.sourceMapsEnabled === true;
  if (!maps) return fn();
  process.setSourceMapsEnabled(false);
  let result;
  try {
    result = fn();
  } catch (err) {
    process.setSourceMapsEnabled(true);
    throw err;
  }
  if (!(result instanceof Promise)) {
    process.setSourceMapsEnabled(true);
    return result;
  }
  return result.finally(() => process.setSourceMapsEnabled(true));
}

// A package whose entry is one large CommonJS file (typescript's lib/typescript.js, 9 MB), loaded
// with require(): import() would first scan the whole text for its export names (Node's
// cjs-module-lexer), 0.4 s of a 1.6 s listing that reads inline tools. Null when the package is
// not found, or its entry is not CommonJS (the caller then imports it).
function requirePackage(name, fromDir) {
  const found = resolvePackage(name, "", fromDir);
  if (found === null || !/\.c?js$/.test(found.url)) return null;
  try {
    const file = fileURLToPath(found.url);
    return withoutSourceMaps(() => ({ ns: createRequire(file)(file), ...found }));
  } catch {
    return null;  // an ES module (before Node 20.19, or with top-level await), or a failing entry: import() says why
  }
}

async function importPackage(name, subpath, fromDir) {
  const found = resolvePackage(name, subpath, fromDir);
  if (found === null) return null;
  if (!packageCache.has(found.url)) packageCache.set(found.url, import(found.url).then((ns) => ({ ns, ...found })));
  return packageCache.get(found.url);
}

// -- zod ---------------------------------------------------------------------------------

const isZod4 = (s) => s !== null && typeof s === "object" && typeof s._zod === "object" && s._zod !== null;
const isZod3 = (s) => s !== null && typeof s === "object" && !isZod4(s) && typeof s._def === "object"
  && typeof s.safeParse === "function";
const isZod = (s) => isZod4(s) || isZod3(s);
const zodObjectKind = (s) => (isZod4(s) ? s._zod.def?.type === "object" : isZod3(s) ? s._def.typeName === "ZodObject" : false);
const aiSchemaSymbol = Symbol.for("vercel.ai.schema");
const isAiSchema = (s) => s !== null && typeof s === "object" && (s[aiSchemaSymbol] === true || ("jsonSchema" in s && "validate" in s));

// JSON schema of a zod schema in `io` mode ("input" or "output"), with the project's zod
// (4: z.toJSONSchema) or zod-to-json-schema (3). `accepted`: the rendering of what the runtime
// accepts (the runtime side), not the one a project sends (zod 3 only differs). Throws with the
// converter's message.
async function zodJsonSchema(schema, io, fromDir, accepted = false) {
  if (isZod4(schema)) {
    const toJSONSchema = await zod4Function("toJSONSchema", fromDir);
    if (toJSONSchema === null) {
      throw new Error("the project's zod has no toJSONSchema (zod 4, or zod 3.25's zod/v4, is needed for a zod 4 schema)");
    }
    return toJSONSchema(schema, { target: "draft-7", io });
  }
  // The project's zod-to-json-schema, else the one its `ai` depends on (a pnpm store hoists neither).
  let z2j = await importPackage("zod-to-json-schema", "", fromDir);
  if (z2j === null) {
    const ai = resolvePackage("ai", "", fromDir);
    if (ai !== null) z2j = await importPackage("zod-to-json-schema", "", fs.realpathSync(ai.dir)).catch(() => null);
  }
  const convert = z2j?.ns?.zodToJsonSchema || z2j?.ns?.default;
  if (typeof convert !== "function") {
    throw new Error("a zod 3 schema needs zod-to-json-schema in the project (npm install zod-to-json-schema)");
  }
  // zod-to-json-schema writes `additionalProperties: false` for a default (strip) object, which
  // accepts an undeclared key and drops it: the runtime's input side renders such an object open,
  // as zod 4's toJSONSchema does in input mode (`.strict()` stays false, a catchall its schema).
  const input = accepted && io === "input"
    ? { removeAdditionalStrategy: "strict", allowedAdditionalProperties: undefined } : {};
  return convert(schema, { target: "jsonSchema7", pipeStrategy: io, $refStrategy: "root", ...input });
}

// A function of the project's zod 4 API: from "zod" (zod 4), else "zod/v4" (zod 3.25 ships
// zod 4 there), else "zod/v4/core"; null when none has it.
async function zod4Function(name, fromDir) {
  for (const sub of ["", "v4", "v4/core"]) {
    const zod = await importPackage("zod", sub, fromDir).catch(() => null);
    const fn = zod?.ns?.[name] ?? zod?.ns?.z?.[name];
    if (typeof fn === "function") return fn;
  }
  return null;
}

// safeParseAsync of a zod schema: its own method (zod 4 classic, zod 3), else the project's
// zod 4 function (zod/mini schemas have no methods).
async function safeParse(schema, args, fromDir) {
  if (typeof schema.safeParseAsync === "function") return schema.safeParseAsync(args);
  const fn = await zod4Function("safeParseAsync", fromDir);
  if (fn === null) throw new Error("cannot find zod's safeParseAsync for this schema");
  return fn(schema, args);
}

function pointerOf(pathItems) {
  return pathItems.map((t) => "/" + (typeof t === "number" ? "*" : escapeToken(typeof t === "symbol" ? String(t) : t))).join("");
}

function hasKeyAt(value, pathItems) {
  let node = value;
  for (let i = 0; i < pathItems.length; i++) {
    if (node === null || typeof node !== "object") return i < pathItems.length;
    if (!Object.prototype.hasOwnProperty.call(node, pathItems[i])) return false;
    node = node[pathItems[i]];
  }
  return true;
}

// The outcome of a zod (or AI SDK) validation result for `args`.
function outcomeOfError(error, args) {
  const issues = Array.isArray(error?.issues) ? error.issues : null;
  if (issues === null) {
    const message = String(error?.message || error || "refused").split("\n")[0].slice(0, 300);
    return { status: "refused", error_type: error?.constructor?.name || "Error", message, errors: [] };
  }
  const errors = flattenIssues(issues).map(({ path: p, code, message }) => ({
    path: pointerOf(p),
    type: code === "invalid_type" && p.length > 0 && !hasKeyAt(args, p) ? "missing" : String(code),
    message: String(message),
  }));
  const shown = errors.slice(0, 3).map((e) => `${e.path.slice(1) || "(root)"}: ${e.message}`);
  const more = errors.length > 3 ? ` (+${errors.length - 3} more)` : "";
  return { status: "refused", error_type: "ZodError", message: shown.join("; ") + more, errors };
}

function flattenIssues(issues, prefix = []) {
  const out = [];
  for (const issue of issues) {
    const p = [...prefix, ...(issue.path || [])];
    out.push({ path: p, code: issue.code, message: issue.message });
  }
  return out;
}

// -- source locations --------------------------------------------------------------------

const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function localImports(file, text) {
  const out = [];
  const re = /(?:import|export)[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]/g;
  for (const m of text.matchAll(re)) {
    const base = path.resolve(path.dirname(file), m[1]);
    const stem = base.replace(/\.(m|c)?js$/, "");
    for (const cand of [base, `${stem}.ts`, `${stem}.mts`, `${stem}.cts`, `${stem}.tsx`, `${stem}.js`, `${stem}.mjs`,
      path.join(base, "index.ts"), path.join(base, "index.js")]) {
      if (fs.existsSync(cand) && fs.statSync(cand).isFile()) {
        out.push(cand);
        break;
      }
    }
  }
  return out;
}

const textCache = new Map();
function readText(file) {
  if (!textCache.has(file)) {
    try {
      textCache.set(file, fs.readFileSync(file, "utf8"));
    } catch {
      textCache.set(file, null);
    }
  }
  return textCache.get(file);
}

// The file and 1-based line where a tool is defined: the first line matching one of the
// patterns, in the module itself and then in the local files it imports.
function moduleFiles(file, limit = 200) {
  const seen = [file];
  for (let i = 0; i < seen.length && seen.length < limit; i++) {
    const text = readText(seen[i]);
    if (!text) continue;
    for (const next of localImports(seen[i], text)) if (!seen.includes(next)) seen.push(next);
  }
  return seen;
}

function locate(file, patterns) {
  const files = moduleFiles(file);
  for (const re of patterns) {
    for (const f of files) {
      const text = readText(f);
      const m = text ? re.exec(text) : null;
      if (m) return { file: f, line: text.slice(0, m.index + m[0].length - m[0].trimStart().length).split("\n").length };
    }
  }
  return { file, line: null };
}

// -- where MCP tools are registered: the caller of registerTool / tool -------------------

const registrations = new WeakMap(); // McpServer -> Map(name -> {file, line})
const createdServers = []; // McpServer objects that registered a tool during an import
const patchedSdks = new Set();
const WORKER_FILE = new URL(import.meta.url).pathname;

function callerOf(stack) {
  for (const raw of String(stack || "").split("\n").slice(1)) {
    const m = /\(?((?:file:\/\/)?[^()\s]+?):(\d+):(\d+)\)?\s*$/.exec(raw.trim());
    if (!m) continue;
    let file = m[1];
    if (file.startsWith("file://")) {
      try {
        file = new URL(file).pathname;
      } catch {
        continue;
      }
    }
    if (file === WORKER_FILE || file.includes(`${path.sep}node_modules${path.sep}`) || file.startsWith("node:")) continue;
    return { file: decodeURIComponent(file), line: Number(m[2]) };
  }
  return null;
}

// The MCP server packages whose registrations must be watched before `file` is imported: those
// its text, or that of a local file it imports, names (@modelcontextprotocol/sdk, the SDK 2's
// @modelcontextprotocol/server, fastmcp), or all of them when it imports through a path alias
// (`@/lib/x`, `~/x`, `#x`), which is not followed. Empty: the SDKs are not imported (importing one
// costs about as much as importing the AI SDK: docs/typescript.md, "Start-up"; fastmcp, with
// mcp-proxy, about 1 s).
function mcpPackagesNamed(file) {
  const named = new Set();
  for (const f of moduleFiles(file, 60)) {
    const text = readText(f);
    if (!text) continue;
    if (text.includes("@modelcontextprotocol/sdk")) named.add(SDK_1);
    if (text.includes("@modelcontextprotocol/server")) named.add(SDK_2);
    if (/from\s*["']fastmcp["']|require\(\s*["']fastmcp["']/.test(text)) named.add(FASTMCP);
    if (/(?:from|import|require\()\s*["'](?:@\/|~\/|#)/.test(text)) return new Set(MCP_PACKAGES);
    if (named.size === MCP_PACKAGES.length) break;
  }
  return named;
}

const SDK_1 = "@modelcontextprotocol/sdk", SDK_2 = "@modelcontextprotocol/server", FASTMCP = "fastmcp";
const MCP_PACKAGES = [SDK_1, SDK_2, FASTMCP];

// Wraps the registering methods of each MCP server package of `packages` (default: all) that the
// project in `dir` has, before the module that may use it is imported.
async function watchRegistrations(dir, packages = MCP_PACKAGES) {
  const wanted = new Set(packages);
  await withoutSourceMaps(async () => {
    if (wanted.has(SDK_1)) await watchSdk(await importPackage(SDK_1, "server/mcp.js", dir).catch(() => null));
    if (wanted.has(SDK_2)) await watchSdk(await importPackage(SDK_2, "", dir).catch(() => null));
    if (wanted.has(FASTMCP)) await watchFastMcp(await importPackage(FASTMCP, "", dir).catch(() => null));
  });
}

// FastMCP for TypeScript (the `fastmcp` package, punkpeye/fastmcp): `server.addTool({name,
// description, parameters, execute})` keeps the tool in a private field, and the server answers
// tools/list only over a transport started by `server.start()`. Its addTool/addTools are wrapped
// before the import to record each tool object with the line that added it.
const fastMcpTools = new WeakMap(); // FastMCP -> Map(name -> {tool, where})
const createdFastMcp = []; // FastMCP objects that added a tool during an import or a call

async function watchFastMcp(pkg) {
  const proto = pkg?.ns?.FastMCP?.prototype;
  if (!proto || patchedSdks.has(pkg.url)) return;
  patchedSdks.add(pkg.url);
  let filters = false;
  try {
    filters = /\.canList\b/.test(Function.prototype.toString.call(pkg.ns.FastMCPSession));
  } catch { /* not filtered */ }
  const record = (server, tool) => {
    if (!fastMcpTools.has(server)) {
      fastMcpTools.set(server, new Map());
      createdFastMcp.push(server);
      server[FASTMCP_DIR] = pkg.dir;
      server[FASTMCP_FILTERS] = filters;
    }
    if (tool && typeof tool.name === "string") {
      fastMcpTools.get(server).set(tool.name, { tool, where: callerOf(new Error().stack) });
    }
  };
  for (const method of ["addTool", "addTools"]) {
    const original = proto[method];
    if (typeof original !== "function") continue;
    proto[method] = function (arg, ...rest) {
      try {
        for (const tool of method === "addTools" && Array.isArray(arg) ? arg : [arg]) record(this, tool);
      } catch { /* recording is a nicety; the call goes on as written */ }
      return original.call(this, arg, ...rest);
    };
  }
  for (const method of ["removeTool", "removeTools"]) {
    const original = proto[method];
    if (typeof original !== "function") continue;
    proto[method] = function (arg, ...rest) {
      const names = Array.isArray(arg) ? arg : [arg];
      for (const n of names) fastMcpTools.get(this)?.delete(n);
      return original.call(this, arg, ...rest);
    };
  }
}
const FASTMCP_DIR = Symbol("schemalint.fastmcpDir");
const FASTMCP_FILTERS = Symbol("schemalint.fastmcpFiltersByCanList");

// Where a FastMCP tool is defined: the line of its `name: "..."` in the file that added it (or the
// module and its local imports), since a project's own wrapper of addTool (firecrawl-mcp-server
// overrides it on the instance) would otherwise be the caller of every tool; else the caller.
function fastMcpLine(ctx, name, where) {
  const re = new RegExp(`\\bname\\s*:\\s*["'\`]${escapeRe(name)}["'\`]`);
  const text = where ? readText(where.file) : null;
  const m = text ? re.exec(text) : null;
  if (m) return { file: where.file, line: text.slice(0, m.index).split("\n").length };
  const found = locate(ctx.file, [re]);
  return found.line !== null ? found : (where ?? found);
}
const isFastMcp = (v) => v !== null && typeof v === "object" && fastMcpTools.has(v);

// The tools a FastMCP server added, as its tools/list sends them: `inputSchema` is
// `strictJsonSchema(await toJsonSchema(parameters))` of the `xsschema` that fastmcp depends on
// (resolved from fastmcp's own folder; fastmcp 3.x and 4.x), `{type: "object", properties: {},
// additionalProperties: false}` without parameters; a call is validated by the parameters'
// Standard Schema `validate`, as its tools/call handler does.
async function fastMcpServerTools(state, server, ctx) {
  let real = server[FASTMCP_DIR];
  try {
    real = fs.realpathSync(real);
  } catch { /* the folder as resolved */ }
  const xs = await importPackage("xsschema", "", real).catch(() => null);
  const out = [];
  for (const [name, { tool, where }] of fastMcpTools.get(server) ?? []) {
    // A fastmcp whose session filters tools/list by `canList(auth)` (firecrawl-mcp-server patches
    // fastmcp 4.3.2 so; upstream has no canList) leaves out a tool whose canList is false; without a
    // session, auth is undefined.
    let listed = true;
    try {
      listed = !server[FASTMCP_FILTERS] || typeof tool.canList !== "function" || Boolean(tool.canList(undefined));
    } catch { /* listed: an error here is the session's, which a real client has */ }
    if (!listed) {
      ctx.notes.push(`${name} left out: its canList() is false without a session, so FastMCP's tools/list does not `
        + "send it");
      continue;
    }
    const params = tool.parameters;
    let advertised = { additionalProperties: false, properties: {}, type: "object" };
    if (params) {
      if (typeof xs?.ns?.toJsonSchema !== "function") {
        ctx.problems.push(problem(ctx, name, "a FastMCP tool, but the xsschema package fastmcp converts schemas "
          + `with cannot be found from ${real}`, "environment"));
        continue;
      }
      try {
        advertised = await xs.ns.toJsonSchema(params);
        if (typeof xs.ns.strictJsonSchema === "function") advertised = xs.ns.strictJsonSchema(advertised);
      } catch (err) {
        ctx.problems.push(problem(ctx, name, `FastMCP cannot convert this tool's parameters: ${errText(err)}`));
        continue;
      }
    }
    const validate = params ? sdk2Validator(params, ctx) : null;
    const handle = validate === null ? null : state.handle(validate);
    const runtime = params && isZod(params) ? await zodRuntime(params, ctx, name) : null;
    const raw = { name, description: tool.description ?? null, inputSchema: advertised };
    if (tool.annotations !== undefined) raw.annotations = tool.annotations;
    out.push(wire(ctx, {
      handle, name, description: tool.description ?? null, advertised,
      runtime: runtime ?? (handle ? { input: advertised, output: null } : null),
      origin: origin(ctx, fastMcpLine(ctx, name, where), "mcp-server", "fastmcp"), raw, output_schema: null,
    }));
  }
  return out;
}

async function watchSdk(sdk) {
  const proto = sdk?.ns?.McpServer?.prototype;
  if (!proto || patchedSdks.has(sdk.url)) return;
  patchedSdks.add(sdk.url);
  for (const method of ["registerTool", "tool"]) {
    const original = proto[method];
    if (typeof original !== "function") continue;
    proto[method] = function (name, ...rest) {
      try {
        const where = callerOf(new Error().stack);
        if (!registrations.has(this)) {
          registrations.set(this, new Map());
          createdServers.push(this);
        }
        if (where && typeof name === "string" && !registrations.get(this).has(name)) registrations.get(this).set(name, where);
      } catch { /* a location is a nicety */ }
      return original.call(this, name, ...rest);
    };
  }
}

const keyPatterns = (key) => {
  const k = escapeRe(key);
  return [new RegExp(`(?:const|let|var|function)\\s+${k}\\b`), new RegExp(`(?:^|[\\s{,(])["'\`]?${k}["'\`]?\\s*:`, "m"),
    new RegExp(`(?:method|name)\\s*:\\s*["'\`]${k}["'\`]`)];
};
const mcpPatterns = (name) => {
  const n = escapeRe(name);
  return [new RegExp(`\\.(?:registerTool|tool)\\(\\s*["'\`]${n}["'\`]`), new RegExp(`["'\`]${n}["'\`]`)];
};

// -- finding tools -----------------------------------------------------------------------

const isPlainObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v)
  && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);
const isAiTool = (v) => v !== null && typeof v === "object" && !isZod(v) && !isAiSchema(v)
  && ("inputSchema" in v || "parameters" in v)
  && (isZod(v.inputSchema ?? v.parameters) || isAiSchema(v.inputSchema ?? v.parameters)
    || (v.inputSchema ?? v.parameters)?.["~standard"] !== undefined);
// An AI SDK agent (ai 5 `Experimental_Agent`, ai 6 `ToolLoopAgent`): an instance keeping its
// constructor settings, whose `tools` record is what the agent offers the model.
const isAiAgent = (v) => v !== null && typeof v === "object" && !isPlainObject(v) && typeof v.generate === "function"
  && typeof v.stream === "function" && v.settings !== null && typeof v.settings === "object"
  && v.settings.tools !== null && typeof v.settings.tools === "object";
// A Mastra agent (`new Agent({tools})` of @mastra/core): no settings kept in the open, but
// `listTools()` resolves its tools record (function-based tools included) without calling a model.
const isMastraAgent = (v) => v !== null && typeof v === "object" && !isPlainObject(v) && !isAiAgent(v)
  && typeof v.generate === "function" && typeof v.stream === "function" && typeof v.listTools === "function";
// A Mastra instance (`new Mastra({agents})`): its agents, by `listAgents()` (1.x) or `getAgents()` (0.x).
const isMastra = (v) => v !== null && typeof v === "object" && !isPlainObject(v) && typeof v.getAgent === "function"
  && (typeof v.listAgents === "function" || typeof v.getAgents === "function");
// The MCP SDK's low-level Server (setRequestHandler, connect) and not an McpServer: tools/list is a
// handler of its own, answered only when a client asks.
const isLowLevelServer = (v) => v !== null && typeof v === "object" && typeof v.setRequestHandler === "function"
  && typeof v.connect === "function" && v._registeredTools === undefined;
const isMcpServer = (v) => v !== null && typeof v === "object" && typeof v.registerTool === "function"
  && typeof v.connect === "function" && v._registeredTools !== undefined;

class State {
  constructor() {
    this.validators = new Map();
    this.count = 0;
  }
  handle(fn) {
    this.count += 1;
    const h = `t${this.count}`;
    this.validators.set(h, fn);
    return h;
  }
}

// The AI SDK's asSchema: from `ai` (AI SDK 4 and later), else from the `@ai-sdk/ui-utils` that
// `ai` depends on (AI SDK 3.x kept it there; resolved from ai's own folder, as a pnpm store links it).
async function aiAsSchema(dir) {
  const ai = await importPackage("ai", "", dir);
  if (ai === null) return null;
  if (typeof ai.ns.asSchema === "function") return ai.ns.asSchema;
  let real;
  try {
    real = fs.realpathSync(ai.dir);
  } catch {
    return null;
  }
  const utils = await importPackage("@ai-sdk/ui-utils", "", real).catch(() => null);
  return typeof utils?.ns?.asSchema === "function" ? utils.ns.asSchema : null;
}

async function aiTool(state, value, name, ctx, at = null) {
  const schema = value.inputSchema ?? value.parameters;
  if (standIns.has(value.description)) {
    // A factory that passes its own argument through as the description (`createDynamicTool(name,
    // description, execute)`, a wrapper for tools discovered at run time) builds a template, not a
    // tool: what it describes is known only to its callers.
    ctx.problems.push({ ...problem(ctx, name, `${name} builds its tool from its arguments (the description is the `
      + "stand-in it was given): a template filled in at run time, not checked as a tool; check the tools it "
      + "builds where they are built (a module that calls it with real arguments)", "unchecked"), severity: "warning" });
    return null;
  }
  const asSchema = await aiAsSchema(ctx.dir);
  if (asSchema === null) {
    ctx.problems.push(problem(ctx, name, "an AI SDK tool, but the project has no 'ai' package with asSchema (npm install ai)",
      "environment"));
    return null;
  }
  let converted;
  let advertised;
  try {
    converted = asSchema(schema);
    advertised = await converted.jsonSchema;
  } catch (err) {
    ctx.problems.push(problem(ctx, name, `the AI SDK cannot convert this tool's schema: ${errText(err)}`));
    return null;
  }
  const runtime = isZod(schema) ? await zodRuntime(schema, ctx, name) : null;
  let handle = null;
  if (typeof converted.validate === "function") {
    handle = state.handle(async (args) => {
      const result = await converted.validate(args);
      return result?.success ? null : result?.error ?? new Error("refused");
    });
  }
  const where = at ?? locate(ctx.file, keyPatterns(name));
  const raw = { name, description: value.description ?? null, inputSchema: advertised };
  if (value.strict !== undefined) raw.strict = value.strict;
  if (value.outputSchema !== undefined && isZod(value.outputSchema)) {
    try {
      raw.outputSchema = await asSchema(value.outputSchema).jsonSchema;
    } catch { /* left out */ }
  }
  return wire(ctx, {
    handle, name, description: value.description ?? null, advertised,
    runtime: runtime ?? (handle ? { input: advertised, output: null } : null),
    origin: origin(ctx, where, "ai-sdk"), raw, output_schema: raw.outputSchema ?? null,
  });
}

async function zodRuntime(schema, ctx, name) {
  const out = { input: null, output: null };
  try {
    out.input = await zodJsonSchema(schema, "input", ctx.dir, true);
  } catch (err) {
    ctx.notes.push(`${name}: zod cannot render the input schema: ${errText(err)}`);
  }
  try {
    out.output = await zodJsonSchema(schema, "output", ctx.dir);
  } catch (err) {
    ctx.notes.push(`${name}: zod cannot render the output schema: ${errText(err)}`);
  }
  return out.input === null && out.output === null ? null : out;
}

async function zodTool(state, schema, name, ctx) {
  let advertised;
  try {
    advertised = await zodJsonSchema(schema, "input", ctx.dir);
  } catch (err) {
    ctx.problems.push(problem(ctx, name, `zod cannot render this schema as JSON Schema: ${errText(err)}`));
    return null;
  }
  let output = null;
  try {
    output = await zodJsonSchema(schema, "output", ctx.dir);
  } catch { /* transforms have no output rendering */ }
  const input = isZod4(schema) ? advertised : await zodJsonSchema(schema, "input", ctx.dir, true);
  const handle = state.handle(async (args) => {
    const result = await safeParse(schema, args, ctx.dir);
    return result.success ? null : result.error;
  });
  const where = locate(ctx.file, keyPatterns(name));
  const description = typeof schema.description === "string" ? schema.description : null;
  return wire(ctx, {
    handle, name, description, advertised, runtime: { input, output },
    origin: origin(ctx, where, "zod"), raw: { name, description, parameters: advertised }, output_schema: null,
  });
}

// An McpServer of the MCP TypeScript SDK 2 (@modelcontextprotocol/server): it validates a call with
// its own validateToolInput and converts schemas with toolInputSchemaJson (SDK 1 has neither).
const isSdk2Server = (v) => typeof v?.validateToolInput === "function" && typeof v?.toolInputSchemaJson === "function";

// tools/list of an SDK 2 server, every page, asked over the SDK's own InMemoryTransport as a client
// would (initialize, initialized, tools/list): the server package alone suffices, no client package.
async function listSdk2(server, label, ctx) {
  const sdk = await importPackage("@modelcontextprotocol/server", "", ctx.dir);
  const Transport = sdk?.ns?.InMemoryTransport;
  if (!Transport) throw new Error(`${label}: an MCP SDK 2 server, but @modelcontextprotocol/server (InMemoryTransport) cannot be found from ${ctx.dir}`);
  if (typeof server.isConnected === "function" && server.isConnected()) await server.close();
  const [clientSide, serverSide] = Transport.createLinkedPair();
  const waiting = new Map();
  clientSide.onmessage = (message) => {
    if (message?.id !== undefined && waiting.has(message.id)) {
      waiting.get(message.id)(message);
      waiting.delete(message.id);
    }
  };
  await server.connect(serverSide);
  await clientSide.start?.();
  let id = 0;
  const ask = (method, params) => new Promise((resolve, reject) => {
    id += 1;
    waiting.set(id, (m) => (m.error ? reject(new Error(`${method}: ${m.error.message}`)) : resolve(m.result)));
    clientSide.send({ jsonrpc: "2.0", id, method, params });
  });
  const version = sdk.ns.LATEST_PROTOCOL_VERSION ?? sdk.ns.DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
  await ask("initialize", { protocolVersion: version, capabilities: {}, clientInfo: { name: "schemalint", version: "1" } });
  await clientSide.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  const listed = [];
  let cursor;
  for (let page = 0; page < 1000; page++) {
    const answer = await ask("tools/list", cursor ? { cursor } : {});
    listed.push(...(answer?.tools || []));
    cursor = answer?.nextCursor;
    if (!cursor) break;
  }
  await server.close();
  return listed;
}

// The runtime of an SDK 2 tool: tools/call validates with validateStandardSchema(inputSchema,
// arguments ?? {}), the schema's Standard Schema `validate`; for a zod schema that is its
// safeParseAsync, whose issues carry their codes (a missing key is told apart).
function sdk2Validator(schema, ctx) {
  if (isZod(schema)) {
    return async (args) => {
      const result = await safeParse(schema, args ?? {}, ctx.dir);
      return result.success ? null : result.error;
    };
  }
  const standard = schema?.["~standard"];
  if (typeof standard?.validate !== "function") return null;
  return async (args) => {
    const result = await standard.validate(args ?? {});
    if (!result.issues) return null;
    return { issues: result.issues.map((i) => ({ message: i.message,
      path: (i.path || []).map((k) => (k !== null && typeof k === "object" ? k.key : k)) })) };
  };
}

async function mcpServerTools(state, server, label, ctx) {
  if (isSdk2Server(server)) return mcpSdk2Tools(state, server, label, ctx);
  const client = await importPackage("@modelcontextprotocol/sdk", "client/index.js", ctx.dir);
  const memory = await importPackage("@modelcontextprotocol/sdk", "inMemory.js", ctx.dir);
  if (client === null || memory === null) {
    throw new Error(`${label}: an MCP server, but @modelcontextprotocol/sdk (client, inMemory) cannot be found from ${ctx.dir}`);
  }
  const compat = await importPackage("@modelcontextprotocol/sdk", "server/zod-compat.js", ctx.dir).catch(() => null);
  if (typeof server.isConnected === "function" && server.isConnected()) await server.close();
  const [clientSide, serverSide] = memory.ns.InMemoryTransport.createLinkedPair();
  const mcp = new client.ns.Client({ name: "schemalint", version: "1" });
  await server.connect(serverSide);
  await mcp.connect(clientSide);
  const listed = [];
  let cursor;
  for (let page = 0; page < 1000; page++) {
    const answer = await mcp.listTools(cursor ? { cursor } : {});
    listed.push(...(answer.tools || []));
    cursor = answer.nextCursor;
    if (!cursor) break;
  }
  await mcp.close();
  await server.close();
  const out = [];
  for (const tool of listed) {
    const registered = server._registeredTools?.[tool.name];
    let schema = registered?.inputSchema;
    if (schema && compat?.ns?.normalizeObjectSchema) schema = compat.ns.normalizeObjectSchema(schema) ?? schema;
    let handle = null;
    let runtime = null;
    if (schema && isZod(schema)) {
      runtime = await zodRuntime(schema, ctx, tool.name);
      const parse = compat?.ns?.safeParseAsync;
      handle = state.handle(async (args) => {
        const result = parse ? await parse(schema, args ?? {}) : await safeParse(schema, args ?? {}, ctx.dir);
        return result.success ? null : result.error;
      });
    }
    out.push(listedMcpTool(ctx, server, tool, handle, runtime, "@modelcontextprotocol/sdk"));
  }
  return out;
}

async function mcpSdk2Tools(state, server, label, ctx) {
  const listed = await listSdk2(server, label, ctx);
  const out = [];
  for (const tool of listed) {
    const schema = server._registeredTools?.[tool.name]?.inputSchema;
    const validator = schema ? sdk2Validator(schema, ctx) : null;
    const handle = validator ? state.handle(validator) : null;
    const runtime = schema && isZod(schema) ? await zodRuntime(schema, ctx, tool.name) : null;
    out.push(listedMcpTool(ctx, server, tool, handle, runtime, "@modelcontextprotocol/server"));
  }
  return out;
}

// One listed MCP tool (SDK 1 or 2) on the wire: located at its registration when the source showed
// it, else by its name in the module. `listedBy`: the package whose tools/list wrote the schemas.
function listedMcpTool(ctx, server, tool, handle, runtime, listedBy) {
  const where = registrations.get(server)?.get(tool.name) ?? locate(ctx.file, mcpPatterns(tool.name));
  return wire(ctx, {
    handle, name: tool.name, description: tool.description ?? null, advertised: tool.inputSchema ?? null,
    runtime: runtime ?? (handle ? { input: tool.inputSchema ?? null, output: null } : null),
    origin: origin(ctx, where, "mcp-server", listedBy), raw: tool, output_schema: tool.outputSchema ?? null,
  });
}

function origin(ctx, where, format, listedBy = null) {
  return { file: where.file, pointer: "", format, line: where.line, listed_by: listedBy };
}

// A tool's runtime `output` is the output-mode rendering of its *input* schema; beside an advertised
// outputSchema the rules read `runtime.output` as the schema of the results the server emits (the
// Python MCP loader's serialization mode, SL110), which a TypeScript tool's worker does not know:
// it is left out there (before, SL110 compared modelcontextprotocol/servers' outputSchemas with
// their tools' input keys: 19 false errors on src/memory).
function wire(ctx, tool) {
  const problems = [];
  const emittedUnknown = tool.output_schema !== null && tool.output_schema !== undefined;
  const out = {
    handle: tool.handle,
    name: String(tool.name),
    description: tool.description === null || tool.description === undefined ? null : String(tool.description),
    advertised: jsonable(tool.advertised, problems, "/advertised"),
    runtime: tool.runtime === null ? null : {
      input: jsonable(tool.runtime.input, problems, "/runtime/input"),
      output: emittedUnknown ? null : jsonable(tool.runtime.output, problems, "/runtime/output"),
    },
    refused_when_omitted: [],
    origin: tool.origin,
    schema_path: "",
    output_schema: jsonable(tool.output_schema, problems, "/output_schema"),
    raw: jsonable(tool.raw, problems, "/raw"),
  };
  if (problems.length) out.not_json = problems;
  return out;
}

function problem(ctx, name, message, kind = "definition") {
  const where = locate(ctx.file, keyPatterns(name));
  return { code: "SL000", name: "unreadable-source", severity: "error", tool: name, file: where.file, pointer: "",
    message, hint: null, line: where.line, column: null, instance_path: null, kind };
}

// One line for an error: its first line, bounded. A first line that only announces what follows
// (esbuild's "Transform failed with 1 error:", as tsx passes it on) gets the first detail line
// too: the error's text with its file (relative to the working directory), line and column.
function errText(err) {
  const lines = String(err?.message ?? err).split("\n").map((l) => l.trim()).filter(Boolean);
  let text = lines[0] ?? "";
  if (text.endsWith(":") && lines.length > 1) {
    const cwd = process.cwd() + path.sep;
    text = `${text} ${lines[1].startsWith(cwd) ? lines[1].slice(cwd.length) : lines[1]}`;
  }
  return `${err?.constructor?.name || "Error"}: ${text.slice(0, 300)}`;
}

// The name a framework sends for a tool object: `method` when it has one beside a display
// `name` (Stripe's agent toolkit: {method: "create_customer", name: "Create Customer"}; its MCP
// server, AI SDK and OpenAI adapters all send `method`), else `name`.
const sentName = (item) => (typeof item.method === "string" && item.method ? item.method : item.name);

// An object describing one tool in a shape that is not a framework's (a name or description of
// its own beside a schema under another key, `parametersSchema`): its schemas are its parts.
const describesOneTool = (v) => isPlainObject(v) && !isAiTool(v)
  && ["name", "method", "description"].some((k) => typeof v[k] === "string");

// Tools held by `value` (reached as `label`, named `name`), appended to `found`.
async function collect(state, value, name, label, ctx, found, depth, explicit) {
  if (value === null || value === undefined || depth > 3) return;
  if (typeof value === "object") {
    // The same object reached twice (a CommonJS module's `default` and its named exports, a
    // tool both exported and listed in a table) is one tool.
    if (ctx.seen.has(value)) return;
    if (isMcpServer(value) || isAiTool(value) || isZod(value)) ctx.seen.add(value);
  }
  if (isMcpServer(value)) {
    found.framework.push(...await mcpServerTools(state, value, label, ctx));
    return;
  }
  if (isFastMcp(value)) {
    ctx.seen.add(value);
    found.framework.push(...await fastMcpServerTools(state, value, ctx));
    return;
  }
  if (isAiTool(value)) {
    const tool = await aiTool(state, value, name, ctx);
    if (tool) found.framework.push(tool);
    return;
  }
  if (isAiAgent(value)) {
    await collect(state, value.settings.tools, name, `${label}.tools`, ctx, found, depth + 1, explicit);
    return;
  }
  if (isMastra(value)) {
    ctx.seen.add(value);
    const agents = typeof value.listAgents === "function" ? value.listAgents() : value.getAgents();
    await collect(state, agents, name, `${label}.agents`, ctx, found, depth, explicit);
    return;
  }
  if (isMastraAgent(value)) {
    ctx.seen.add(value);
    let tools;
    try {
      tools = await value.listTools();
    } catch (err) {
      ctx.problems.push(problem(ctx, name, `${label} is a Mastra agent, but its listTools() failed (${errText(err)}); `
        + "check the modules that define its tools instead", "unchecked"));
      return;
    }
    await collect(state, tools, name, `${label}.tools`, ctx, found, depth, explicit);
    return;
  }
  if (isZod(value)) {
    if (zodObjectKind(value)) found.schemas.push([value, name]);
    else if (explicit && depth === 0) throw new Error(`${label}: a zod schema, but not an object schema (tool arguments are an object)`);
    return;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      let itemName = `${name}[${i}]`;
      let target = item;
      if (item && typeof item === "object" && (typeof item.name === "string" || typeof item.method === "string")) {
        itemName = sentName(item);
        if (!isAiTool(item) && item.tool !== undefined) target = item.tool;
        else if (!isAiTool(item) && item.schema !== undefined) target = item.schema;
      }
      await collect(state, target, itemName, `${label}[${i}]`, ctx, found, depth + 1, explicit);
    }
    return;
  }
  if (isPlainObject(value)) {
    const oneTool = describesOneTool(value);
    for (const [key, sub] of Object.entries(value)) {
      if (oneTool && isZod(sub)) {
        ctx.notes.push(`${label}.${key} left out: a zod schema inside an object that describes a tool in no `
          + "framework's shape is that object's part, not a tool");
        continue;
      }
      await collect(state, sub, key, `${label}.${key}`, ctx, found, depth + 1, explicit);
    }
  }
}

// -- factories ---------------------------------------------------------------------------

// A stand-in for an argument a factory needs (`({session, dataStream}) => tool({...})`,
// `createServer(auth, {transport})`): every property of it is the same stand-in, calling or
// constructing it gives it back, it is "" as a string and 0 as a number, it has no `then` (so
// awaiting it does not hang) and iterating it yields nothing. It records nothing: no trap keeps
// what it was asked, so the factory's tool definitions come out as they do with real arguments
// unless the factory branches on them.
const standIns = new WeakSet();
function standIn() {
  const target = function () {};
  let proxy;
  proxy = new Proxy(target, {
    get(_t, key) {
      if (key === "then") return undefined;
      if (key === Symbol.toPrimitive) return (hint) => (hint === "number" ? 0 : "");
      if (key === Symbol.iterator) return function* () {};
      if (key === Symbol.asyncIterator) return async function* () {};
      if (key === "toString" || key === "valueOf" || key === "toJSON") return () => "";
      if (typeof key === "symbol") return undefined;
      return proxy;
    },
    apply: () => proxy,
    construct: () => proxy,
    set: () => true,
    defineProperty: () => true,
    deleteProperty: () => true,
  });
  standIns.add(proxy);
  return proxy;
}

const isClass = (fn) => /^class\b/.test(Function.prototype.toString.call(fn));

// The function's own text says it returns an AI SDK tool (`=> tool({`, compiled by tsx/esbuild
// to `(0, import_ai.tool)({`): the evidence that lets a module read as a whole call it.
const AI_TOOL_FACTORY = /(?<![\w$])(?:tool|dynamicTool)\)?\s*\(\s*\{/;
const isAiToolFactory = (fn) => typeof fn === "function" && !isClass(fn) && !isZod(fn)
  && AI_TOOL_FACTORY.test(Function.prototype.toString.call(fn));

// Call a factory: with no arguments when it declares none it must have (`fn.length` counts
// parameters before the first default), else (or when that throws) with stand-ins. Returns
// {value, how} or throws the last error.
async function callFactory(fn) {
  if (fn.length === 0) {
    try {
      return { value: await fn(), how: "no arguments" };
    } catch (err) {
      if (!(err instanceof TypeError)) throw err;
    }
  }
  const count = Math.max(fn.length, 2);
  return { value: await fn(...Array.from({ length: count }, standIn)), how: `${count} stand-in arguments` };
}

// A function that registers tools on the MCP server it is given (`initializeMcpServer(server,
// config = {})`, `registerWebSearchTool(server, config?)`): called with a new McpServer of the
// project's SDK (1, else 2) as its first argument, the other arguments left out (their defaults
// apply), or stand-ins when that throws a TypeError. The server, when it registered a tool; else null.
async function registrarServer(fn, dir) {
  if (fn.length > 4) return null;
  await watchRegistrations(dir, [SDK_1, SDK_2]);
  const sdk = (await importPackage("@modelcontextprotocol/sdk", "server/mcp.js", dir).catch(() => null))
    ?? (await importPackage("@modelcontextprotocol/server", "", dir).catch(() => null));
  const McpServer = sdk?.ns?.McpServer;
  if (typeof McpServer !== "function") return null;
  const registered = (server) => Object.keys(server._registeredTools ?? {}).length > 0;
  let server = new McpServer({ name: "schemalint", version: "0.0.0" });
  try {
    await fn(server);
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    server = new McpServer({ name: "schemalint", version: "0.0.0" });
    await fn(server, ...Array.from({ length: Math.max(fn.length - 1, 1) }, standIn));
  }
  return registered(server) ? server : null;
}

// One line saying how to name a factory's result when it cannot be called with stand-ins.
// The wrapper awaits at its top level, which only an ES module may: in a CommonJS package (no
// "type": "module" in the package.json nearest the module, as in most Next.js apps) it is named
// `.mts`, which tsx loads as an ES module whatever the package's type.
const wrapperHint = (file, name) => {
  const rel = path.relative(process.cwd(), file).replace(/\.[mc]?[jt]s$/, "");
  const spec = rel.startsWith(".") ? rel : `./${rel}`;
  const wrapper = `schemalint-tools.${packageIsModule(file) ? "ts" : "mts"}`;
  return `write a module that calls it with real arguments and exports the result, e.g. ${wrapper}: `
    + `import { ${name} } from "${spec}"; export const tools = await ${name}(/* your arguments */); `
    + `then check ${wrapper}:tools`;
};

// Whether the package.json nearest above `file` says "type": "module" (no package.json: false).
function packageIsModule(file) {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    const text = readText(path.join(dir, "package.json"));
    if (text) {
      try {
        return JSON.parse(text).type === "module";
      } catch {
        return false;
      }
    }
    if (path.dirname(dir) === dir) return false;
  }
}

// A function's text that makes an MCP server or registers tools on one: `new McpServer(` (also
// `new import_mcp.McpServer(` as tsx compiles a CommonJS module), `new FastMCP(`, `.registerTool(`,
// `.addTool(`, `.tool("name"`, or a `register…(server` call that hands a server on.
const SERVES_TOOLS = /new\s+[\w$.]*\b(?:McpServer|FastMCP)\s*\(|\.(?:registerTool|addTools?)\s*\(|\.tool\s*\(\s*["'`]|\bregister\w*\s*\(\s*server\b/;

// -- the export named by :ATTR ----------------------------------------------------------

// A module on the MCP TypeScript SDK 2 (`@modelcontextprotocol/server`) whose import registered no
// tool: its server is made in a function (or only when started). The 1-based line of the module's
// import of the SDK, or 0 when it has none.
const sdk2Line = (file) => {
  let text;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return 0;
  }
  const m = /\bfrom\s*["']@modelcontextprotocol\/server(?:\/[^"']*)?["']/.exec(text);
  return m === null ? 0 : text.slice(0, m.index).split("\n").length;
};
const SDK2_NOTE = (source) => `${source} imports the MCP TypeScript SDK 2 (@modelcontextprotocol/server), but no `
  + "McpServer registered a tool while it was imported: name the export or factory that creates the server as "
  + ":ATTR, or list the running server with --mcp-stdio CMD";

// A CommonJS module (tsx loads a .ts file of a package without "type": "module" through
// require()) reaches import() as a namespace whose `default` is module.exports, often with no
// named export beside it: its exports are the keys of `default`.
const interopKeys = (ns) => {
  const d = ns.default;
  return d !== null && (typeof d === "object" || typeof d === "function") && !isAiTool(d) && !isZod(d)
    && !isMcpServer(d) ? Object.keys(d) : [];
};

const shownNames = (names, limit = 20) => {
  const list = [...new Set(names)];
  if (!list.length) return "none";
  return list.slice(0, limit).join(", ") + (list.length > limit ? ` (+${list.length - limit} more)` : "");
};

// The names a module offers to :ATTR: its named exports, then the keys of its `default`
// (CommonJS interop), then `default` itself.
function exportNames(ns) {
  const named = Object.keys(ns).filter((k) => k !== "default" && k !== "module.exports");
  return [...named, ...interopKeys(ns), ...("default" in ns ? ["default"] : [])];
}

// The value a dotted `attr` names: its first part is an export of the namespace, else a key
// of the module's `default` (CommonJS interop); each further part a key of the value before.
// {value} or {error} (a message listing what exists).
function resolveExport(ns, attr) {
  const parts = attr.split(".");
  let value;
  const first = parts[0];
  if (first in ns && first !== "module.exports") {
    value = ns[first];
    // `export default X` of a module tsx loaded as CommonJS is module.exports.default (esbuild marks
    // module.exports with __esModule), and import() shows module.exports itself as `default`: `:default`
    // names X there too, as in an ES module (module.exports is kept when only it has the next key).
    if (first === "default" && value !== null && typeof value === "object" && value.__esModule === true
        && "default" in value && (parts.length === 1 || parts[1] in Object(value.default))) value = value.default;
  } else if (interopKeys(ns).includes(first)) {
    value = ns.default[first];
  } else {
    return { error: `the module has no export ${JSON.stringify(first)} (its exports: ${shownNames(exportNames(ns))})` };
  }
  for (let i = 1; i < parts.length; i++) {
    const part = parts[i];
    if (value === null || value === undefined || !(part in Object(value))) {
      const where = parts.slice(0, i).join(".");
      const keys = value === null || value === undefined ? [] : Object.keys(Object(value));
      return { error: `the module has no export ${JSON.stringify(attr)}: ${where} has no key ${JSON.stringify(part)} `
        + `(its keys: ${shownNames(keys)})` };
    }
    value = value[part];
  }
  return { value };
}

let typeScriptReady = null;

async function enableTypeScript(request) {
  if (request.loader !== "tsx") return;
  if (typeScriptReady === null) {
    typeScriptReady = (async () => {
      const api = await import(pathToFileURL(request.tsx).href);
      // The first module's own tsconfig.json (its `paths` aliases), not the working directory's,
      // which tsx reads by default; one registration serves the run.
      api.register(typeof request.tsconfig === "string" ? { tsconfig: request.tsconfig } : undefined);
      // CommonJS modules (a package without "type": "module") are loaded by require(): tsx's
      // CommonJS hook, beside its ESM one.
      const cjs = path.join(path.dirname(path.dirname(path.dirname(request.tsx))), "cjs", "api", "index.mjs");
      if (fs.existsSync(cjs)) (await import(pathToFileURL(cjs).href)).register();
    })();
  }
  await typeScriptReady;
}

// Seconds since `since` (process.uptime() seconds), rounded to milliseconds.
const since = (t) => Math.round((process.uptime() - t) * 1000) / 1000;
let readyAt = null; // process.uptime() when the worker said it was ready

// A hint for an import that failed because a package refuses the conditions it was loaded with
// (Next.js' `server-only` throws unless the `react-server` condition is on).
function conditionsHint(err) {
  const text = String(err?.message ?? err);
  if (/\b(?:createContext|useState|useEffect|useContext|useRef|Component)\b.* is not a (?:function|constructor)/.test(text)
      && process.execArgv.some((a) => a.includes("react-server"))) {
    return " (with the react-server condition, which this project's server-only code needs, React leaves out its "
      + "client APIs, and a package the module imports uses them: Next.js builds such a module its own way, Node "
      + "cannot import it as is. Keep the tools in a module that imports only what they need (ai, zod, their "
      + "schemas), export them, and name that module)";
  }
  if (!/Client Component|server-only|react-server/.test(text)) return "";
  const on = process.execArgv.some((a) => a.includes("react-server"));
  return on ? "" : " (the module imports server-only code, which loads only with Node's react-server condition: "
    + "schemalint turns it on when the module's package.json depends on next or server-only; add server-only to "
    + "its dependencies, or run with NODE_OPTIONS=--conditions=react-server)";
}

// A hint for an import that failed because a package of the project's own workspace (a pnpm, npm or
// yarn workspace link in node_modules) points its entry at build output that was never built.
function buildHint(err) {
  const match = /Cannot find (?:module|package) '([^']+)'/.exec(String(err?.message ?? err));
  if (!match) return "";
  const missing = match[1].replaceAll("\\", "/");
  const at = missing.lastIndexOf("/node_modules/");
  if (at < 0) return "";
  const parts = missing.slice(at + "/node_modules/".length).split("/");
  const name = parts[0].startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
  let real;
  try {
    real = fs.realpathSync(missing.slice(0, at) + "/node_modules/" + name);
  } catch {
    return "";
  }
  if (real.replaceAll("\\", "/").includes("/node_modules/")) return ""; // an installed package, not a link
  return ` (${name} is a package of this workspace, linked from ${real}: its entry points to build output that `
    + `does not exist yet; build it first, e.g. pnpm --filter ${name} build, or the workspace's build script)`;
}

// A hint for an import of a file only a bundler loads (tsup/esbuild/webpack loaders for .sql, .css,
// .svg, .md ...): Node refuses its extension.
function bundlerHint(err) {
  const match = /Unknown file extension "(\.[A-Za-z0-9]+)"/.exec(String(err?.message ?? err));
  if (!match || /^\.(?:[cm]?[jt]sx?|json)$/.test(match[1])) return "";
  return ` (the module imports a ${match[1]} file, which the project's bundler loads and Node cannot: check the `
    + "built module instead (run the project's build, then name the file in dist/ and its export), or list the "
    + "running server with --mcp-stdio)";
}

async function load(state, request) {
  const source = String(request.source);
  if (typeof request.cwd === "string" && request.cwd) process.chdir(request.cwd);
  const file = path.resolve(String(request.file));
  const phases = { node_start: readyAt };
  let t = process.uptime();
  await enableTypeScript(request);
  phases.typescript_loader = since(t);
  t = process.uptime();
  const named = mcpPackagesNamed(file);
  if (named.size) await watchRegistrations(path.dirname(file), named);
  phases.mcp_sdk_watch = since(t);
  const before = [createdServers.length, createdFastMcp.length];
  let ns;
  t = process.uptime();
  // A module that calls process.exit() while it is evaluated (a CLI entry point whose argument
  // parser exits: "Not enough non-option arguments") ends only its import, not the worker: the
  // other modules of the run, and the tools written inline in it, are still read.
  const realExit = process.exit;
  let exited = null;
  process.exit = (code) => {
    exited = code ?? process.exitCode ?? 0;
    throw new Error(`the module called process.exit(${exited}) while it was imported`);
  };
  try {
    ns = await import(pathToFileURL(file).href);
  } catch (err) {
    // A module imported earlier in the run that exited is rethrown as it failed then.
    const again = /^the module called process\.exit\((-?\d+)\)/.exec(String(err?.message ?? ""));
    const code = exited ?? (again ? Number(again[1]) : null);
    const why = code === null ? errText(err)
      : `it called process.exit(${code}) while it was imported (its output is in the worker's stderr below)`;
    const error = `${source}: cannot import: ${why}${conditionsHint(err)}${buildHint(err)}${bundlerHint(err)}`;
    // The tools written inline (a route's POST handler) are read from the text all the same.
    const answer = request.attr ? null : await inlineOnly(state, file, error);
    if (answer !== null && !answer.ok) return answer;
    if (answer !== null) {
      phases.module_import = since(t);
      answer.phases = phases;
      return answer;
    }
    return { ok: false, error };
  } finally {
    process.exit = realExit;
  }
  phases.module_import = since(t);
  t = process.uptime();
  const answer = await listTools(state, request, source, file, ns, before);
  phases.listing = since(t);
  answer.phases = phases;
  return answer;
}

async function listTools(state, request, source, file, ns, before) {
  const ctx = { file, dir: path.dirname(file), problems: [], notes: [], seen: new Set() };
  const found = { framework: [], schemas: [] };
  const attr = request.attr;
  try {
    if (attr) {
      const resolved = resolveExport(ns, String(attr));
      if (resolved.error) return { ok: false, error: `${source}: ${resolved.error}` };
      let value = resolved.value;
      const name = String(attr).split(".").pop();
      let called = null; // the function named, when it was called
      let callError = null;
      const beforeCall = [createdServers.length, createdFastMcp.length];
      if (typeof value === "function" && !isClass(value) && !isZod(value)) {
        // A factory named explicitly (createServer): called (stand-ins for the arguments it
        // needs), its result read.
        called = value;
        try {
          value = (await callFactory(value)).value;
        } catch (err) {
          callError = err;
          value = undefined;
        }
      }
      if (callError === null) await collect(state, value, name, attr, ctx, found, 0, true);
      if (called !== null && !found.framework.length && !found.schemas.length && !ctx.problems.length) {
        // The function returned no tool, but made an MCP server that registered tools while it ran
        // (an entry point's `main()` that creates the server and connects it), or registers tools
        // on a server it is given (`initializeMcpServer(server, config)`, `registerTools(server)`).
        const servers = createdServers.slice(beforeCall[0]);
        const fast = createdFastMcp.slice(beforeCall[1]);
        if (!servers.length && !fast.length) {
          const given = await registrarServer(called, ctx.dir).catch(() => null);
          if (given !== null) servers.push(given);
        }
        for (const server of servers) {
          found.framework.push(...await mcpServerTools(state, server, `${attr}()`, ctx));
        }
        for (const server of fast) found.framework.push(...await fastMcpServerTools(state, server, ctx));
        if (servers.length || fast.length) callError = null;
      }
      if (callError !== null) {
        return { ok: false, error: `${source}: calling ${name}() with stand-in arguments failed (${errText(callError)}); `
          + wrapperHint(file, name) };
      }
      if (!found.framework.length && !found.schemas.length && !ctx.problems.length) {
        if (isLowLevelServer(value)) {
          return { ok: false, error: `${source}: ${attr} is a low-level MCP Server (its tools are answered by a `
            + "tools/list request handler, not registered on it), which is read only over a transport: list the running "
            + "server with --mcp-stdio CMD (its advertised side; the command that starts it over stdio)" };
        }
        return { ok: false, error: `${source}: ${attr} holds no tool (an AI SDK tool, an MCP McpServer, a zod object `
          + "schema, or an object or array of them)" };
      }
    } else {
      // A CommonJS module whose only export is module.exports (an object): its keys are its exports.
      const cjs = Object.keys(ns).every((k) => k === "default" || k === "module.exports") && isPlainObject(ns.default)
        ? ns.default : null;
      const exports = cjs ?? ns;
      for (const key of Object.keys(exports)) {
        if (cjs === null && key === "module.exports") continue;
        const name = cjs === null && key === "default" ? path.basename(file).replace(/\.[^.]+$/, "") : key;
        let value = exports[key];
        if (isAiToolFactory(value)) {
          // `export const createDocument = ({session, dataStream}) => tool({...})`: the tool the
          // factory returns, built with stand-in arguments (its body says it returns a tool).
          try {
            value = (await callFactory(value)).value;
          } catch (err) {
            ctx.problems.push(problem(ctx, name, `${key} returns an AI SDK tool, but calling it with stand-in `
              + `arguments failed (${errText(err)}); ${wrapperHint(file, key)}`, "unchecked"));
            continue;
          }
        }
        await collect(state, value, name, key, ctx, found, 0, false);
      }
      // The lines of this module where a server created by the import registered a tool.
      ctx.registeredLines = new Set();
      for (const server of createdServers.slice(before[0])) {
        for (const where of registrations.get(server)?.values() ?? []) {
          if (where.file === ctx.file) ctx.registeredLines.add(where.line);
        }
      }
      await inlineTools(state, ctx, found);
      if (!found.framework.length) {
        // No export holds a tool: the MCP servers the import itself created (a server made and
        // connected in the module's own main code) are read instead.
        for (const server of createdServers.slice(before[0])) {
          found.framework.push(...await mcpServerTools(state, server, "(a server created at import)", ctx));
        }
        for (const server of createdFastMcp.slice(before[1])) {
          if (!ctx.seen.has(server)) found.framework.push(...await fastMcpServerTools(state, server, ctx));
        }
      }
      const line = !found.framework.length && !found.schemas.length ? sdk2Line(file) : 0;
      // Nothing found, but the module's default export is a function that was not called (a
      // toolkit's `export default (context) => [createCustomerTool(context), ...]`): say how to read
      // it. (Named helper functions are left alone: a glob reaches many modules of helpers.)
      const uncalled = ["default"].filter((k) => typeof exports[k] === "function"
        && !isClass(exports[k]) && !isZod(exports[k]) && !isAiToolFactory(exports[k]));
      if (!line && !found.framework.length && !found.schemas.length && !ctx.problems.length && uncalled.length) {
        const shown = uncalled.slice(0, 5).join(", ") + (uncalled.length > 5 ? ` (+${uncalled.length - 5} more)` : "");
        ctx.problems.push({ code: "SL000", name: "unreadable-source", severity: "warning", tool: null, file,
          pointer: "", message: `${source} holds no tool in its exports, but exports function(s) that are called only `
            + `when named (${shown}): a factory that builds tools is read as e.g. schemalint check `
            + `${source}:${uncalled[0]} (called with stand-in arguments when it needs some)`, hint: null, line: null,
          column: null, instance_path: null, kind: "unchecked" });
      }
      // Nothing found, but named exports whose text makes an MCP server or registers tools on one
      // (an entry point's `main()`, `initializeMcpServer(server, config)`): they run only when named.
      const serving = uncalled.length ? [] : Object.keys(exports).filter((k) => k !== "default"
        && typeof exports[k] === "function" && !isClass(exports[k]) && !isZod(exports[k])
        && SERVES_TOOLS.test(Function.prototype.toString.call(exports[k])));
      if (!line && !found.framework.length && !found.schemas.length && !ctx.problems.length && serving.length) {
        ctx.problems.push({ code: "SL000", name: "unreadable-source", severity: "warning", tool: null, file,
          pointer: "", message: `${source} registered no tool while it was imported and none of its exports holds one, `
            + `but it exports function(s) that create an MCP server or register tools on one (${shownNames(serving, 5)}), `
            + `which run only when named: e.g. schemalint check ${source}:${serving[0]} (it is called; the servers it `
            + "creates, or the McpServer it is given as its first argument, are read; which tools it registers may "
            + "depend on configuration such as environment variables)", hint: null, line: null,
          column: null, instance_path: null, kind: "unchecked" });
      }
      if (line) {
        const named = serving.length ? ` (e.g. schemalint check ${source}:${serving[0]})` : "";
        ctx.problems.push({ code: "SL000", name: "unreadable-source", severity: "warning", tool: null, file,
          pointer: "", message: SDK2_NOTE(source) + named, hint: null, line, column: null, instance_path: null });
      }
    }
  } catch (err) {
    return { ok: false, error: `${source}: cannot list its tools: ${errText(err)}` };
  }
  // A module that holds framework tools has its zod schemas read as their parts, not as tools.
  const tools = found.framework;
  if (attr || !tools.length) {
    for (const [schema, name] of found.schemas) {
      const tool = await zodTool(state, schema, name, ctx);
      if (tool) tools.push(tool);
    }
  }
  return { ok: true, tools, problems: ctx.problems, notes: ctx.notes };
}

// -- tools written inline (inline_tools.mjs) ---------------------------------------------

// A specifier imported as `file` imports it: a relative one from the file's folder (through the
// TypeScript loader when one is registered), a package from the module's node_modules.
async function importFrom(file, spec) {
  const rel = relativeUrl(file, spec);
  if (rel !== null) return import(rel);
  const parts = spec.split("/");
  const n = spec.startsWith("@") ? 2 : 1;
  const got = await importPackage(parts.slice(0, n).join("/"), parts.slice(n).join("/"), path.dirname(file));
  if (got === null) throw new Error(`cannot be resolved from ${path.dirname(file)} (a path alias is not followed)`);
  return got.ns;
}

// The project's TypeScript compiler API (typescript 5.x and earlier; TypeScript 7's native
// compiler has none), or {missing: why}.
async function typeScriptApi(dir) {
  const found = requirePackage("typescript", dir) ?? await importPackage("typescript", "", dir).catch(() => null);
  const api = [found?.ns, found?.ns?.default].find((ns) => typeof ns?.createSourceFile === "function");
  if (api) return { api };
  return { missing: found === null ? "the project has no typescript package"
    : `its typescript ${found.version} has no compiler API (createSourceFile)` };
}

// The 1-based lines of the text that look like inline tool definitions (when they cannot be parsed).
const hintLines = (text) => text.split("\n").flatMap((l, i) => (/\btools\s*:\s*\{|(?<![\w$.])(?:tool|dynamicTool)\s*\(\s*\{|\.(?:registerTool|tool)\s*\(/.test(l) ? [i + 1] : []));

function unreadable(ctx, name, line, message) {
  return { code: "SL000", name: "unreadable-source", severity: "warning", tool: name, file: ctx.file, pointer: "",
    message, hint: null, line, column: null, instance_path: null, kind: "unchecked" };
}

// Tools written inline in the module (found by inline_tools.mjs), appended to found.framework
// unless a tool of that name was already read from the module's exports. A definition whose parts
// cannot be evaluated is an SL000 warning (kind unchecked) at its line.
async function inlineTools(state, ctx, found) {
  const text = readText(ctx.file);
  if (!mayHoldInlineTools(text)) return 0;
  // Every line that may hold an inline definition is a registration that ran while the module was
  // imported (an entry point registering at its top level, modelcontextprotocol/servers'
  // src/memory): those tools are read from the server itself, and the compiler API is not
  // loaded (importing `typescript` and parsing was 3 to 4 s of a 4 s listing there).
  const ran = ctx.registeredLines;
  if (ran && ran.size && hintLines(text).every((l) => ran.has(l))) return 0;
  const { api: ts, missing } = await typeScriptApi(ctx.dir);
  if (!ts) {
    const lines = hintLines(text);
    if (lines.length && !found.framework.length) {
      ctx.problems.push(unreadable(ctx, null, lines[0], `tool definitions may be written inline here (line(s) `
        + `${lines.slice(0, 10).join(", ")}) and were not read: reading them without running the code needs the `
        + `TypeScript compiler API, and ${missing} (npm install --save-dev typescript@5)`));
    }
    return 0;
  }
  const { sf, sites } = findSites(ts, ctx.file, text);
  const have = new Set(found.framework.map((t) => t.name));
  const todo = sites.filter((site) => site.name === null || !have.has(site.name));
  if (!todo.length) return 0;
  const ev = evaluator(ts, sf, ctx.file, (spec) => importFrom(ctx.file, spec));
  const value = async (node) => {
    await ev.prepare(node);
    return ev.evaluate(node);
  };
  let server = null;
  let read = 0;
  for (const site of todo) {
    const written = site.fn ? `written inline in ${site.fn}` : "written inline";
    const where = { file: ctx.file, line: site.line };
    try {
      if (site.kind === "ai") {
        const tool = { [site.parts.schemaKey]: await value(site.parts.schema) };
        if (site.parts.description) {
          try {
            tool.description = await value(site.parts.description);
          } catch (err) {
            ctx.notes.push(`${site.name}: its description (line ${site.line}) cannot be read without running the code: ${errText(err)}`);
          }
        }
        if (site.parts.outputSchema) tool.outputSchema = await value(site.parts.outputSchema).catch(() => undefined);
        if (!isAiTool(tool)) throw new TypeError(`its ${site.parts.schemaKey} is not a zod or AI SDK schema`);
        const got = await aiTool(state, tool, site.name, ctx, where);
        if (got) {
          found.framework.push(got);
          read += 1;
        }
      } else {
        const name = site.name ?? String(await value(site.nameNode));
        site.name = name;
        const args = [];
        for (const node of site.args) args.push(await value(node));
        server ??= await inlineServer(ctx);
        if (!registrations.has(server)) registrations.set(server, new Map());
        registrations.get(server).set(name, where);
        server[site.method](name, ...args, async () => ({ content: [] }));
        read += 1;
      }
    } catch (err) {
      const shown = site.name === null ? `a tool (line ${site.line})` : `tool '${site.name}'`;
      ctx.problems.push(unreadable(ctx, site.name, site.line, `${shown}, ${written}, was found but cannot be read `
        + `without running the code: ${errText(err)}; its schema may reference only the module's imports and `
        + "module-level names (export the tool from a module to check it as it is built)"));
    }
  }
  if (server !== null) found.framework.push(...await mcpServerTools(state, server, "(tools written inline)", ctx));
  if (read) {
    ctx.notes.push(`${read} tool(s) written inline in ${path.basename(ctx.file)} read from its source text (each `
      + "description and schema evaluated with the module's own imports and module-level names; nothing else ran)");
  }
  return read;
}

// An McpServer to register inline MCP tools on, from the SDK the module imports (2 when it imports
// @modelcontextprotocol/server, else 1).
async function inlineServer(ctx) {
  const sdk2 = sdk2Line(ctx.file) > 0;
  const sdk = sdk2 ? await importPackage("@modelcontextprotocol/server", "", ctx.dir)
    : await importPackage("@modelcontextprotocol/sdk", "server/mcp.js", ctx.dir);
  if (typeof sdk?.ns?.McpServer !== "function") {
    throw new Error(`${sdk2 ? "@modelcontextprotocol/server" : "@modelcontextprotocol/sdk"} cannot be found from ${ctx.dir}`);
  }
  return new sdk.ns.McpServer({ name: "schemalint-inline", version: "0" });
}

// The answer for a module that cannot be imported but holds tools written inline: those tools,
// and the import failure as an SL000 warning (its exports were not read). null when it holds none.
async function inlineOnly(state, file, error) {
  const ctx = { file, dir: path.dirname(file), problems: [], notes: [], seen: new Set() };
  const found = { framework: [], schemas: [] };
  try {
    await inlineTools(state, ctx, found);
  } catch {
    return null;
  }
  if (!found.framework.length) {
    const first = ctx.problems[0];
    return first ? { ok: false, error: `${error}; ${first.line ? `line ${first.line}: ` : ""}${first.message}` } : null;
  }
  ctx.problems.unshift(unreadable(ctx, null, null, `${error}; its exports were not read, only the tools written `
    + "inline in it, from its source text"));
  return { ok: true, tools: found.framework, problems: ctx.problems, notes: ctx.notes };
}

async function validate(state, request) {
  const fn = state.validators.get(String(request.tool));
  if (!fn) return { ok: false, error: `unknown tool handle ${JSON.stringify(request.tool)}` };
  const args = request.arguments;
  try {
    const error = await fn(args);
    if (error === null) return { ok: true, outcome: { status: "accepted", error_type: "", message: "", errors: [] } };
    return { ok: true, outcome: outcomeOfError(error, args) };
  } catch (err) {
    return { ok: true, outcome: { status: "crash", error_type: err?.constructor?.name || "Error",
      message: String(err?.message ?? err).split("\n")[0].slice(0, 300) || "crash", errors: [] } };
  }
}

function main() {
  setInterval(() => {
    if (process.ppid !== PARENT) process.exit(3);
  }, 500).unref();
  process.on("uncaughtException", (err) => {
    process.stderr.write(`schemalint node worker: uncaught exception from the imported code: ${errText(err)}\n`);
  });
  process.on("unhandledRejection", (err) => {
    process.stderr.write(`schemalint node worker: unhandled rejection from the imported code: ${errText(err)}\n`);
  });
  const state = new State();
  const input = new net.Socket({ fd: IN_FD, readable: true, writable: false });
  let buffer = "";
  let queue = Promise.resolve();
  readyAt = Math.round(process.uptime() * 1000) / 1000;
  send({ event: "ready", protocol: 1, runtime: "node", version: process.versions.node });
  input.setEncoding("utf8");
  input.on("data", (chunk) => {
    buffer += chunk;
    let end;
    while ((end = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 1);
      queue = queue.then(() => serve(state, line));
    }
  });
  input.on("end", () => {
    queue.then(() => process.exit(0));
  });
  // Keep the process alive while a load is pending even if the module's own handles close.
  setInterval(() => {}, 1 << 30);
}

async function serve(state, line) {
  let request;
  try {
    request = JSON.parse(line);
    if (request === null || typeof request !== "object") throw new Error("not an object");
  } catch {
    send({ id: null, ok: false, error: "the request is not a JSON object" });
    return;
  }
  const id = request.id;
  let answer;
  try {
    if (request.op === "shutdown") {
      send({ id, ok: true });
      process.exit(0);
    } else if (request.op === "load") answer = await load(state, request);
    else if (request.op === "validate") answer = await validate(state, request);
    else answer = { ok: false, error: `unknown op ${JSON.stringify(request.op)}` };
  } catch (err) {
    answer = { ok: false, error: `worker error: ${errText(err)}` };
  }
  answer.id = id;
  send(answer);
}

main();
