// Tools written inline, read from the module's source text (docs/typescript.md, "Tools written
// inline"): an AI SDK `tools: {name: {description, parameters|inputSchema}}` record or a
// `tool({...})` call inside a request handler (`POST` passing it to `streamText`), a factory or a
// helper nobody exports, and MCP `registerTool(...)` / `server.tool(...)` calls inside a function
// that is never called at import. None of them exists until the handler runs, so the module's
// exports cannot show them.
//
// The module is parsed with the project's own `typescript` package (its compiler API:
// createSourceFile, transpileModule; TypeScript 7's native compiler has no such API). For each
// call site only the parts that define the contract are evaluated (the description and the schema
// expression, or an MCP registration's arguments other than its callback), with the names they
// reference bound to what the module itself binds them to: its imports (zod, or a local module
// holding schemas, imported on demand) and its module-level declarations (`const Address =
// z.object(...)`, a function or enum). Nothing else of the module runs: a part that references
// anything else (a request's data, a parameter of the handler) cannot be evaluated, and the tool is
// reported as found but unreadable, with its file and line.

import path from "node:path";
import { pathToFileURL } from "node:url";

// Text that may hold an inline tool; the parser is loaded only for such a module.
const HINT = /\btools\s*:\s*\{|(?<![\w$.])(?:tool|dynamicTool)\s*\(\s*\{|\.(?:registerTool|tool)\s*\(/;
export const mayHoldInlineTools = (text) => typeof text === "string" && HINT.test(text);

const MCP_PACKAGES = /["']@modelcontextprotocol\/(?:sdk|server)(?:\/[^"']*)?["']/;
const AI_TOOL_CALLEES = new Set(["tool", "dynamicTool"]);

const lineOf = (sf, node) => sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;

function propertyName(ts, name) {
  if (!name) return null;
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)
      || ts.isNoSubstitutionTemplateLiteral(name)) return name.text;
  return null;
}

function literalProperties(ts, object) {
  const out = new Map();
  for (const p of object.properties) {
    if (ts.isPropertyAssignment(p)) {
      const key = propertyName(ts, p.name);
      if (key !== null) out.set(key, p.initializer);
    } else if (ts.isShorthandPropertyAssignment(p)) {
      out.set(p.name.text, p.name);
    }
  }
  return out;
}

// The name of the function a node is written in (`POST`, `createTools`), or null at module level.
function enclosingFunction(ts, node) {
  for (let n = node.parent; n; n = n.parent) {
    if (ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n)) return n.name ? n.name.getText() : "(anonymous)";
    if (ts.isArrowFunction(n) || ts.isFunctionExpression(n)) {
      const p = n.parent;
      if (p && ts.isVariableDeclaration(p) && ts.isIdentifier(p.name)) return p.name.text;
      if (p && ts.isPropertyAssignment(p)) return propertyName(ts, p.name) ?? "(anonymous)";
      return "(anonymous)";
    }
  }
  return null;
}

// The name a tool definition gets from where it is written: its key in an object (`getWeather:
// tool({...})`), the name beside it in a `{name, tool}` entry, its variable, else the function
// that returns it, else the module's basename for a default export.
function siteName(ts, node, file) {
  const p = node.parent;
  if (p && ts.isPropertyAssignment(p)) {
    const key = propertyName(ts, p.name);
    if (key === "tool" && ts.isObjectLiteralExpression(p.parent)) {
      const named = literalProperties(ts, p.parent);
      for (const k of ["method", "name"]) {
        const v = named.get(k);
        if (v && (ts.isStringLiteral(v) || ts.isNoSubstitutionTemplateLiteral(v))) return v.text;
      }
    }
    if (key !== null) return key;
  }
  if (p && ts.isVariableDeclaration(p) && ts.isIdentifier(p.name)) return p.name.text;
  if (p && ts.isExportAssignment(p)) return path.basename(file).replace(/\.[^.]+$/, "");
  const fn = enclosingFunction(ts, node);
  return fn && fn !== "(anonymous)" ? fn : null;
}

// Whether `object` (an object literal) is an AI SDK tool written as a literal: it has the key the
// framework reads its schema from.
const schemaKeyOf = (props) => (props.has("inputSchema") ? "inputSchema" : props.has("parameters") ? "parameters" : null);

// The names a module exports by an `export { a, b as c }` list.
function exportList(ts, sf) {
  const out = new Set();
  for (const st of sf.statements) {
    if (ts.isExportDeclaration(st) && !st.moduleSpecifier && st.exportClause && ts.isNamedExports(st.exportClause)) {
      for (const el of st.exportClause.elements) out.add((el.propertyName ?? el.name).text);
    }
  }
  return out;
}

const hasExport = (ts, node) => (ts.getCombinedModifierFlags?.(node) ?? 0) & ts.ModifierFlags.Export;

// Whether a function gives back a value (an arrow's expression body, or a `return` with one in its
// own body): a factory such as createServer returns the server its registrations are made on,
// while configureTools(server) registers on the server it is given and returns nothing.
function returnsValue(ts, fn) {
  if (ts.isArrowFunction(fn) && !ts.isBlock(fn.body)) return true;
  let found = false;
  const visit = (n) => {
    if (found || (n !== fn.body && ts.isFunctionLike(n))) return;
    if (ts.isReturnStatement(n) && n.expression) found = true;
    else ts.forEachChild(n, visit);
  };
  if (fn.body) visit(fn.body);
  return found;
}

// Whether the module's exports reach the definition at `node`, so that importing the module reads
// it: written in an exported declaration at module level, or (an AI SDK tool) in the value an
// exported function returns, which a factory call gives (docs/typescript.md, "Factories"); an MCP
// registration in an exported function that returns a value (createServer) is read by naming that
// function as :ATTR. A definition in an exported request handler's call (`POST` passing `tools` to
// `streamText`) or in an exported configureTools(server) that returns nothing is not reached.
function reachedByExports(ts, sf, node, kind, exported) {
  let top = node;
  while (top.parent && top.parent !== sf) top = top.parent;
  let isExported = ts.isExportAssignment(top) || Boolean(hasExport(ts, top));
  if (!isExported && ts.isVariableStatement(top)) {
    isExported = top.declarationList.declarations.some((d) => ts.isIdentifier(d.name) && exported.has(d.name.text));
  } else if (!isExported && ts.isFunctionDeclaration(top) && top.name) {
    isExported = exported.has(top.name.text);
  }
  if (!isExported) return false;
  let fn = null;
  for (let n = node.parent; n && n !== sf; n = n.parent) {
    if (ts.isFunctionLike(n)) {
      fn = n;
      break;
    }
  }
  if (fn === null) return true;
  if (kind === "mcp") return returnsValue(ts, fn);
  // Returned: only object and array literals, parentheses and type assertions between the
  // definition and the function's `return` (or its arrow body).
  for (let n = node; n.parent; n = n.parent) {
    const p = n.parent;
    if (p === fn) return ts.isArrowFunction(fn) && fn.body === n;
    if (ts.isReturnStatement(p)) return true;
    if (!(ts.isPropertyAssignment(p) || ts.isObjectLiteralExpression(p) || ts.isArrayLiteralExpression(p)
        || ts.isParenthesizedExpression(p) || ts.isAsExpression(p) || ts.isSatisfiesExpression?.(p)
        || ts.isCallExpression(p) && p.arguments[0] === n && ts.isIdentifier(p.expression)
          && AI_TOOL_CALLEES.has(p.expression.text))) return false;
  }
  return false;
}

/**
 * The inline tool definitions of one module's text, in source order:
 * {kind: "ai", name, line, fn, parts: {description, schema, schemaKey, outputSchema}} or
 * {kind: "mcp", name, nameNode, line, fn, method, args}, where the parts are AST nodes.
 */
export function findSites(ts, file, text) {
  const kind = /\.[mc]?tsx$|\.jsx$/.test(file) ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const sites = [];
  const mcpModule = MCP_PACKAGES.test(text);
  const visit = (node) => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const arg = node.arguments[0];
      if (ts.isIdentifier(callee) && AI_TOOL_CALLEES.has(callee.text) && arg && ts.isObjectLiteralExpression(arg)) {
        const props = literalProperties(ts, arg);
        const schemaKey = schemaKeyOf(props);
        if (schemaKey) {
          sites.push(aiSite(ts, sf, node, siteName(ts, node, file), props, schemaKey, file));
        }
      } else if (mcpModule && ts.isPropertyAccessExpression(callee)
          && ["registerTool", "tool"].includes(callee.name.text) && arg !== undefined && node.arguments.length >= 2) {
        // The callback is the last argument of both signatures (registerTool(name, config, cb),
        // tool(name, [description], [schema], [annotations], cb)); the others define the tool.
        const rest = node.arguments.slice(1);
        const args = rest.length >= 2 ? rest.slice(0, -1) : rest;
        const literal = ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg);
        sites.push({ kind: "mcp", node, name: literal ? arg.text : null, nameNode: arg, line: lineOf(sf, node),
          fn: enclosingFunction(ts, node), method: callee.name.text, args });
      }
    } else if (ts.isPropertyAssignment(node) && propertyName(ts, node.name) === "tools"
        && ts.isObjectLiteralExpression(node.initializer)) {
      for (const entry of node.initializer.properties) {
        if (!ts.isPropertyAssignment(entry) || !ts.isObjectLiteralExpression(entry.initializer)) continue;
        const props = literalProperties(ts, entry.initializer);
        const schemaKey = schemaKeyOf(props);
        const name = propertyName(ts, entry.name);
        if (schemaKey && name !== null) sites.push(aiSite(ts, sf, entry, name, props, schemaKey, file));
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  const exported = exportList(ts, sf);
  return { sf, sites: sites.filter((site) => !reachedByExports(ts, sf, site.node, site.kind, exported)) };
}

function aiSite(ts, sf, node, name, props, schemaKey, file) {
  const at = node.parent && ts.isPropertyAssignment(node.parent) ? node.parent : node;
  return { kind: "ai", node, name: name ?? `tool at ${path.basename(file)}:${lineOf(sf, at)}`, line: lineOf(sf, at),
    fn: enclosingFunction(ts, node), parts: { description: props.get("description") ?? null,
      schema: props.get(schemaKey), schemaKey, outputSchema: props.get("outputSchema") ?? null } };
}

// -- evaluating a part -------------------------------------------------------------------

// The names a part references (identifiers that are not property names or declarations).
function referencedNames(ts, node) {
  const out = new Set();
  const visit = (n) => {
    if (ts.isIdentifier(n)) {
      const p = n.parent;
      const isName = p && ((ts.isPropertyAccessExpression(p) && p.name === n)
        || (ts.isPropertyAssignment(p) && p.name === n) || (ts.isParameter(p) && p.name === n)
        || (ts.isVariableDeclaration(p) && p.name === n) || (ts.isBindingElement(p) && p.name === n)
        || (ts.isMethodDeclaration(p) && p.name === n) || (ts.isFunctionDeclaration(p) && p.name === n)
        || ts.isTypeReferenceNode(p) || ts.isQualifiedName(p));
      if (!isName) out.add(n.text);
    }
    if (!ts.isTypeNode(n)) ts.forEachChild(n, visit);
  };
  visit(node);
  return out;
}

// What the module binds at its top level: imports (specifier and imported name) and declarations.
function moduleBindings(ts, sf) {
  const imports = new Map(); // local name -> {spec, imported: "default" | "*" | name}
  const decls = new Map(); // name -> {node, kind: "expr" | "statement"}
  for (const st of sf.statements) {
    if (ts.isImportDeclaration(st) && st.importClause && !st.importClause.isTypeOnly
        && ts.isStringLiteral(st.moduleSpecifier)) {
      const spec = st.moduleSpecifier.text;
      const clause = st.importClause;
      if (clause.name) imports.set(clause.name.text, { spec, imported: "default" });
      const nb = clause.namedBindings;
      if (nb && ts.isNamespaceImport(nb)) imports.set(nb.name.text, { spec, imported: "*" });
      if (nb && ts.isNamedImports(nb)) {
        for (const el of nb.elements) {
          if (!el.isTypeOnly) imports.set(el.name.text, { spec, imported: (el.propertyName ?? el.name).text });
        }
      }
    } else if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) {
        if (ts.isIdentifier(d.name) && d.initializer) decls.set(d.name.text, { node: d.initializer, kind: "expr" });
      }
    } else if ((ts.isFunctionDeclaration(st) || ts.isEnumDeclaration(st)) && st.name) {
      decls.set(st.name.text, { node: st, kind: "statement" });
    }
  }
  return { imports, decls };
}

function toJs(ts, text) {
  const out = ts.transpileModule(text, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, removeComments: true },
    reportDiagnostics: false,
  }).outputText;
  return out.replace(/\/\/# sourceMappingURL=.*$/m, "").replace(/^export \{\};?\s*$/m, "").trim();
}

/**
 * An evaluator of parts of one module: `await prepare(node)` imports what the part references
 * (the module's own imports of those names, on demand), then `evaluate(node)` gives its value or
 * throws (a ReferenceError naming what is not bound at module level). `importSpec(spec)` imports a
 * specifier as the module would (resolving packages from the module's folder).
 */
export function evaluator(ts, sf, file, importSpec) {
  const { imports, decls } = moduleBindings(ts, sf);
  const bound = new Map(); // imported names, once imported
  const failed = new Map(); // imported name -> why it could not be imported
  const values = new Map();
  const busy = new Set();
  const scope = new Proxy(Object.create(null), {
    has: (_t, key) => typeof key === "string" && (bound.has(key) || decls.has(key)),
    get: (_t, key) => {
      if (typeof key !== "string") return undefined;
      if (bound.has(key)) return bound.get(key);
      return declValue(key);
    },
  });
  const run = (js, statement, name, within = scope) => (statement
    ? new Function("__scope", `with (__scope) { ${js}\n; return ${name}; }`)
    : new Function("__scope", `with (__scope) { return (${js}\n); }`))(within);
  function declValue(name) {
    if (values.has(name)) return values.get(name);
    if (busy.has(name)) throw new ReferenceError(`${name} is defined in terms of itself`);
    busy.add(name);
    try {
      const { node, kind } = decls.get(name);
      const js = kind === "expr" ? toJs(ts, `(${node.getText(sf)})`).replace(/;$/, "") : toJs(ts, node.getText(sf));
      const value = run(js, kind !== "expr", name);
      values.set(name, value);
      return value;
    } finally {
      busy.delete(name);
    }
  }
  async function prepare(node, seen = new Set()) {
    for (const name of referencedNames(ts, node)) {
      if (seen.has(name)) continue;
      seen.add(name);
      if (decls.has(name)) await prepare(decls.get(name).node, seen);
      else if (imports.has(name) && !bound.has(name) && !failed.has(name)) {
        const { spec, imported } = imports.get(name);
        try {
          const ns = await importSpec(spec);
          let value = imported === "*" ? ns : imported === "default" ? (ns.default ?? ns) : ns[imported];
          if (value === undefined && imported !== "*" && ns.default && typeof ns.default === "object") {
            value = ns.default[imported];
          }
          if (value === undefined) throw new Error(`${spec} has no export ${imported}`);
          bound.set(name, value);
        } catch (err) {
          failed.set(name, `${spec}: ${String(err?.message ?? err).split("\n")[0].slice(0, 200)}`);
        }
      }
    }
  }
  function evaluate(node) {
    for (const name of referencedNames(ts, node)) {
      if (failed.has(name)) throw new ReferenceError(`${name} is imported from ${failed.get(name)}`);
    }
    const js = toJs(ts, `(${node.getText(sf)})`).replace(/;$/, "");
    try {
      return run(js, false, undefined, leftOutParameters(node));
    } catch (err) {
      if (err instanceof ReferenceError) {
        const missing = /^(\S+) is not defined$/.exec(err.message);
        if (missing) {
          throw new ReferenceError(`${missing[1]} is not a module-level name (a value of the ${
            "request or the function it is written in"}, or a global the worker does not have)`);
        }
      }
      throw err;
    }
  }
  // The scope of a definition written in a function, with the parameters a call may leave out
  // (`toolName?: string`, `config = {}`) bound as such a call binds them: `undefined`, or the
  // default's value (a default that needs anything but module-level names leaves the parameter
  // unbound). The innermost function's parameter wins; required parameters stay unbound, so a
  // schema that uses one is reported as unreadable, as before.
  function leftOutParameters(node) {
    const params = new Map();
    for (let n = node.parent; n; n = n.parent) {
      if (!ts.isFunctionLike(n) || !n.parameters) continue;
      for (const p of n.parameters) {
        if (!ts.isIdentifier(p.name) || params.has(p.name.text) || p.dotDotDotToken) continue;
        if (p.initializer) params.set(p.name.text, { init: p.initializer });
        else if (p.questionToken) params.set(p.name.text, { init: null });
        else params.set(p.name.text, null); // required: shadows a module-level name, stays unbound
      }
    }
    if (![...params.values()].some((v) => v !== null)) return scope;
    const values = new Map();
    const valueOf = (key) => {
      if (!values.has(key)) {
        const { init } = params.get(key);
        values.set(key, init === null ? undefined : run(toJs(ts, `(${init.getText(sf)})`).replace(/;$/, ""), false));
      }
      return values.get(key);
    };
    return new Proxy(Object.create(null), {
      has: (_t, key) => (typeof key === "string" && params.has(key) ? params.get(key) !== null : Reflect.has(scope, key)),
      get: (_t, key) => (typeof key === "string" && params.get(key) ? valueOf(key) : scope[key]),
    });
  }
  return { prepare, evaluate };
}

// The URL to import a relative specifier written in `file`, else the specifier itself.
export const relativeUrl = (file, spec) => (spec.startsWith(".") ? new URL(spec, pathToFileURL(file)).href : null);
