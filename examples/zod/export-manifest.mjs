// Export a schemalint contract manifest from zod schemas.
//
//   node export-manifest.mjs                 # manifest to stdout
//   node export-manifest.mjs contracts.json  # manifest to a file
//
// For every tool:
//   advertised            z.toJSONSchema(schema, {target: "draft-7", io: "input"}),
//                         verbatim: what an SDK shows the model.
//   runtime.output        z.toJSONSchema(schema, {target: "draft-7", io: "output"}), verbatim.
//   runtime.input         the input-mode rendering with every object level's `required`
//                         replaced by what the omission probes measured (see README.md).
//   refused_when_omitted  JSON pointers (RFC 6901, into the call's arguments) of the keys
//                         whose removal from a valid sample makes schema.safeParse fail.
import { writeFileSync } from "node:fs";
import { z } from "zod";

const TARGET = "draft-7";

// Incident 1: tolerate models that send the nested object as a JSON string.
const parseIfString = (v) => (typeof v === "string" ? JSON.parse(v) : v);
const presentationObject = () =>
  z.object({
    title: z.string(),
    spec: z.object({ x: z.string() }),
  });
const presentationPreprocessed = () => z.preprocess(parseIfString, presentationObject());

const samplePresentation = { title: "Revenue by month", spec: { x: "month" } };

const TOOLS = [
  {
    name: "present_answer",
    description: "Show the final answer to the user: the artifact and how to present it.",
    schema: z.object({
      artifact: z.string(),
      presentation: presentationPreprocessed(),
    }),
    sample: { artifact: "report.csv", presentation: samplePresentation },
  },
  {
    name: "present_answer_nested",
    description: "Show the final answer to the user, with presentation settings under options.",
    schema: z.object({
      artifact: z.string(),
      options: z.object({
        presentation: presentationPreprocessed(),
      }),
    }),
    sample: { artifact: "report.csv", options: { presentation: samplePresentation } },
  },
  {
    name: "present_answer_clean",
    description: "Show the final answer to the user: the artifact and how to present it.",
    schema: z.object({
      artifact: z.string(),
      presentation: presentationObject(),
    }),
    sample: { artifact: "report.csv", presentation: samplePresentation },
  },
  {
    name: "search_docs",
    description: "Search the documentation and return the best matching passages.",
    schema: z.object({
      query: z.string(),
      limit: z.number().int().min(1).max(50).default(10),
    }),
    sample: { query: "rate limits", limit: 10 },
  },
];

// --- JSON pointers -------------------------------------------------------------------

const escapeToken = (t) => String(t).replaceAll("~", "~0").replaceAll("/", "~1");
const pointer = (path) => path.map((t) => "/" + escapeToken(t)).join("");

const isPlainObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

// Every key path in a sample, at every depth (object keys and array indices).
function* keyPaths(value, path = []) {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) yield* keyPaths(value[i], [...path, i]);
  } else if (isPlainObject(value)) {
    for (const key of Object.keys(value)) {
      yield [...path, key];
      yield* keyPaths(value[key], [...path, key]);
    }
  }
}

function withoutKey(sample, path) {
  const copy = structuredClone(sample);
  let node = copy;
  for (const t of path.slice(0, -1)) node = node[t];
  delete node[path[path.length - 1]];
  return copy;
}

// --- omission probes -----------------------------------------------------------------

function probeOmissions(tool) {
  const ok = tool.schema.safeParse(tool.sample);
  if (!ok.success) {
    throw new Error(`${tool.name}: the hand-written sample is not valid: ${ok.error.message}`);
  }
  const refused = [];
  const accepted = [];
  for (const path of keyPaths(tool.sample)) {
    // Array elements are not keys that can be omitted; only object keys are probed.
    if (typeof path[path.length - 1] === "number") continue;
    const result = tool.schema.safeParse(withoutKey(tool.sample, path));
    (result.success ? accepted : refused).push(path);
  }
  return { refused, accepted };
}

// --- runtime.input: the input-mode rendering, `required` measured ---------------------

function resolveRef(root, node) {
  let seen = 0;
  while (node && typeof node.$ref === "string") {
    if (!node.$ref.startsWith("#/") || ++seen > 32) {
      throw new Error(`cannot follow $ref ${node.$ref}`);
    }
    node = node.$ref
      .slice(2)
      .split("/")
      .map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"))
      .reduce((n, t) => (n == null ? n : n[t]), root);
  }
  return node;
}

// The schema node that describes the object holding the key at instance path `parent`.
function objectSchemaAt(root, parent, toolName) {
  let node = resolveRef(root, root);
  for (const t of parent) {
    const next = typeof t === "number" ? node?.items : node?.properties?.[t];
    node = resolveRef(root, next);
    if (!isPlainObject(node)) {
      throw new Error(
        `${toolName}: no object schema at instance path ${pointer(parent)} ` +
          "(this exporter follows properties, items and local $ref only)",
      );
    }
  }
  return node;
}

function measuredInputSchema(tool, inputSchema, refused, accepted) {
  const schema = structuredClone(inputSchema);
  const verdicts = new Map(); // object schema node -> Map(key -> refused?)
  for (const [paths, isRefused] of [
    [refused, true],
    [accepted, false],
  ]) {
    for (const path of paths) {
      const node = objectSchemaAt(schema, path.slice(0, -1), tool.name);
      if (!verdicts.has(node)) verdicts.set(node, new Map());
      verdicts.get(node).set(path[path.length - 1], isRefused);
    }
  }
  for (const [node, keys] of verdicts) {
    const order = Object.keys(node.properties ?? {});
    const required = new Set(node.required ?? []);
    for (const [key, isRefused] of keys) {
      if (isRefused) required.add(key);
      else required.delete(key);
    }
    // Declared-property order first, then any key the schema does not declare.
    const sorted = [
      ...order.filter((k) => required.has(k)),
      ...[...required].filter((k) => !order.includes(k)),
    ];
    if (sorted.length > 0) node.required = sorted;
    else delete node.required;
  }
  return schema;
}

// --- manifest ------------------------------------------------------------------------

function contractFor(tool) {
  const advertised = z.toJSONSchema(tool.schema, { target: TARGET, io: "input" });
  const output = z.toJSONSchema(tool.schema, { target: TARGET, io: "output" });
  const { refused, accepted } = probeOmissions(tool);
  return {
    name: tool.name,
    description: tool.description,
    advertised,
    runtime: {
      input: measuredInputSchema(tool, advertised, refused, accepted),
      output,
    },
    refused_when_omitted: refused.map(pointer),
  };
}

const manifest = { schemalint: 1, tools: TOOLS.map(contractFor) };
const text = JSON.stringify(manifest, null, 2) + "\n";

const outPath = process.argv[2];
if (outPath) writeFileSync(outPath, text);
else process.stdout.write(text);
