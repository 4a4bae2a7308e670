// An AI SDK agent's tools (incident 1 in schemalint's shared context: zod issue #5968).
//
//   schemalint check examples/typescript/src/agent.ts:AGENT_TOOLS
//
// The model is shown what the AI SDK derives from each zod schema (asSchema(...).jsonSchema:
// zod's toJSONSchema in input mode plus additionalProperties: false); a call is checked with
// the same schema's safeParse. With zod 4.4.3 a z.preprocess(...) key is left out of
// `required` while parsing still refuses a call without it. zod-fixed/agent.ts is this file,
// byte for byte, in a folder whose zod is 4.6.7, where the two agree.
import { generateText, jsonSchema, tool, type LanguageModel } from "ai";
import { z } from "zod";

// Models sometimes send a nested object as a JSON string: accept both.
const parseIfString = (value: unknown) => (typeof value === "string" ? JSON.parse(value) : value);

const presentation = () =>
  z.object({
    title: z.string().describe("Heading shown above the artifact."),
    spec: z.object({ x: z.string().describe("Field plotted on the x axis.") }),
  });

export const AGENT_TOOLS = {
  present_answer: tool({
    description: "Show the final answer to the user: the artifact and how to present it.",
    inputSchema: z.object({
      artifact: z.string().describe("Path of the artifact to show."),
      presentation: z.preprocess(parseIfString, presentation()),
    }),
    execute: async ({ artifact }) => ({ shown: artifact }),
  }),
  present_answer_nested: tool({
    description: "Show the final answer to the user, with the presentation settings under options.",
    inputSchema: z.object({
      artifact: z.string().describe("Path of the artifact to show."),
      options: z.object({ presentation: z.preprocess(parseIfString, presentation()) }),
    }),
    execute: async ({ artifact }) => ({ shown: artifact }),
  }),
  present_answer_clean: tool({
    description: "Show the final answer to the user: the artifact and how to present it.",
    inputSchema: z.object({
      artifact: z.string().describe("Path of the artifact to show."),
      presentation: presentation(),
    }),
    execute: async ({ artifact }) => ({ shown: artifact }),
  }),
  search_docs: tool({
    description: "Search the documentation and return the best matching passages.",
    inputSchema: z.object({
      query: z.string().describe("What to search for."),
      limit: z.number().int().min(1).max(50).default(10).describe("How many passages to return."),
    }),
    execute: async ({ query, limit }) => ({ query, limit, passages: [] }),
  }),
  get_weather: tool({
    description: "Current weather for a city.",
    inputSchema: jsonSchema<{ city: string }>({
      type: "object",
      properties: { city: { type: "string", description: "City name, e.g. Lisbon." } },
      required: ["city"],
      additionalProperties: false,
    }),
    execute: async ({ city }) => ({ city, celsius: 21 }),
  }),
};

// The agent itself: never run by schemalint (tool bodies and models are never called).
export async function answer(model: LanguageModel, prompt: string) {
  return generateText({ model, tools: AGENT_TOOLS, prompt });
}
