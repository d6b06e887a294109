// Renders sdk/src/rest/generated/operations.ts from /api/openapi.json: one entry per route
// (a client method name, its HTTP method and path) and the TypeScript types of its path
// parameters, query, body and answer. `npm run sdk:generate` writes it; a test renders it
// again from a freshly booted host and fails when they differ, so a route without a client
// method cannot land.
import { schemaToTs, type JsonSchema } from "./json-schema-to-ts.ts";

interface OpenApiParameter {
  name: string;
  in: "path" | "query";
  required: boolean;
  schema: JsonSchema;
  description?: string;
}

interface OpenApiOperation {
  operationId: string;
  summary?: string;
  parameters?: OpenApiParameter[];
  requestBody?: { content: { "application/json": { schema: JsonSchema } } };
  responses: Record<string, { description: string; content?: { "application/json": { schema: JsonSchema } } }>;
  security?: unknown[];
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
}

const words = (text: string) => text.split(/[^A-Za-z0-9]+/).filter(Boolean);
const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** `GET /api/boards/{id}/cards` → `getBoardsCardsById`: predictable from the route alone. */
export function methodName(method: string, path: string): string {
  const segments = path.replace(/^\/api(?=\/|$)/, "").split("/").filter(Boolean);
  const literals = segments.filter((s) => !s.startsWith("{")).flatMap(words).map(capital);
  const params = segments.filter((s) => s.startsWith("{")).map((s) => capital(s.slice(1, -1)));
  return method.toLowerCase() + literals.join("") + (params.length ? `By${params.join("And")}` : "");
}

const comment = (text: string, indent: string) => `${indent}/** ${text.replaceAll("*/", "*\\/")} */\n`;

function objectOf(parameters: OpenApiParameter[], indent: string): string {
  const inner = `${indent}  `;
  const lines = parameters.map((p) => `${p.description ? comment(p.description, inner) : ""}${inner}${JSON.stringify(p.name)}${p.required ? "" : "?"}: ${schemaToTs(p.schema, inner)};`);
  return `{\n${lines.join("\n")}\n${indent}}`;
}

/** A node of the route tree: literal segments by name, a path parameter under `{}`, the route ending here under `$`. */
interface RouteNode {
  $?: string;
  children: Map<string, RouteNode>;
}

function addRoute(root: RouteNode, path: string, name: string): void {
  let node = root;
  for (const segment of path.split("/").slice(1)) {
    const key = segment.startsWith("{") ? "{}" : segment;
    let child = node.children.get(key);
    if (!child) node.children.set(key, (child = { children: new Map() }));
    node = child;
  }
  node.$ = name;
}

function renderNode(node: RouteNode, indent: string): string {
  const inner = `${indent}  `;
  const lines = [...(node.$ ? [`${inner}$: "${node.$}";`] : []), ...[...node.children].map(([key, child]) => `${inner}${JSON.stringify(key)}: ${renderNode(child, inner)};`)];
  return `{\n${lines.join("\n")}\n${indent}}`;
}

export function renderRestClient(document: OpenApiDocument): string {
  const table: string[] = [];
  const tree = new Map<string, RouteNode>();
  const types: string[] = [];
  const names = new Map<string, string>();
  const entries = Object.entries(document.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method: method.toUpperCase(), op })));
  entries.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  for (const { path, method, op } of entries) {
    const name = methodName(method, path);
    const clash = names.get(name);
    if (clash) throw new Error(`SDK method name ${name} would serve both ${clash} and ${method} ${path}`);
    names.set(name, `${method} ${path}`);
    if (!tree.has(method)) tree.set(method, { children: new Map() });
    addRoute(tree.get(method)!, path, name);
    const pathParams = (op.parameters ?? []).filter((p) => p.in === "path");
    const query = (op.parameters ?? []).filter((p) => p.in === "query");
    const body = op.requestBody?.content["application/json"].schema;
    const success = Object.entries(op.responses).find(([status]) => status !== "default");
    const responseSchema = success?.[1].content?.["application/json"]?.schema;
    const raw = !responseSchema;
    const session = (op.security ?? []).length > 0;

    table.push(`  ${name}: { method: "${method}", path: "${path}", pathParams: [${pathParams.map((p) => JSON.stringify(p.name)).join(", ")}], status: ${Number(success?.[0] ?? 200)}, raw: ${raw}, session: ${session}, operationId: "${op.operationId}" },`);

    const args: string[] = [];
    for (const p of pathParams) args.push(`      ${JSON.stringify(p.name)}: string;`);
    if (query.length) args.push(`      query${query.some((p) => p.required) ? "" : "?"}: ${objectOf(query, "      ")};`);
    if (body) args.push(`      body: ${schemaToTs(body, "      ")};`);
    const argsRequired = pathParams.length > 0 || query.some((p) => p.required) || body !== undefined;
    types.push(
      `${comment(`\`${method} ${path}\`${op.summary ? `: ${op.summary}` : ""}${session ? " Needs the session token." : ""}`, "  ")}` +
        `  ${name}: {\n    args: {\n${args.join("\n")}${args.length ? "\n" : ""}    };\n    argsRequired: ${argsRequired};\n    response: ${raw ? "Response" : schemaToTs(responseSchema, "    ")};\n  };`,
    );
  }
  return `// Generated by \`npm run sdk:generate\` from /api/openapi.json: do not edit by hand.
// One entry per route of the server with the built-in plugins; a test regenerates it.

/** Every route: the client method's name → how to call it. */
export const operations = {
${table.join("\n")}
} as const;

export type OperationName = keyof typeof operations;

/** Arguments and answer of every route, as the server's zod schemas declare them. */
export interface Operations {
${types.join("\n")}
}

/**
 * Every route by method, then by path segment (after the leading slash): a literal segment by
 * its text, a path parameter as \`{}\`, and \`$\` names the operation of the path ending there.
 * The test kit finds a call's operation from its literal path with it.
 */
export interface RouteTree {
${[...tree].map(([method, node]) => `  ${method}: ${renderNode(node, "  ")};`).join("\n")}
}
`;
}
