// Turns the JSON Schemas of /api/openapi.json (zod's draft 2020-12 output) into TypeScript
// type expressions for the SDK's generated operation table. Only the keywords zod emits are
// understood; anything else becomes `unknown`, which is honest rather than wrong.

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema | JsonSchema[];
  prefixItems?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  description?: string;
  [keyword: string]: unknown;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const key = (name: string) => (IDENTIFIER.test(name) ? name : JSON.stringify(name));
const literal = (value: unknown) => JSON.stringify(value);

/** The TypeScript type of `schema`; `$ref`s resolve against the root schema's `$defs`. */
export function schemaToTs(schema: JsonSchema | boolean | undefined, indent = "", root?: JsonSchema): string {
  if (schema === undefined || schema === true) return "unknown";
  if (schema === false) return "never";
  const top = root ?? schema;
  const recurse = (inner: JsonSchema | boolean | undefined, deeper = indent) => schemaToTs(inner, deeper, top);

  if (schema.$ref) {
    const name = /^#\/\$defs\/(.+)$/.exec(schema.$ref)?.[1];
    const target = name ? top.$defs?.[name] : undefined;
    // A recursive definition would expand forever; its first level is enough for a client.
    return target && !seen.has(target) ? withSeen(target, () => recurse(target)) : "unknown";
  }
  if (schema.const !== undefined) return literal(schema.const);
  if (schema.enum) return schema.enum.map(literal).join(" | ");
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return union.map((member) => wrap(recurse(member))).join(" | ");
  if (schema.allOf) return schema.allOf.map((member) => wrap(recurse(member))).join(" & ");

  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length === 0) return schema.properties ? objectType(schema, indent, top) : "unknown";
  return types.map((type) => wrap(single(type, schema, indent, top))).join(" | ");
}

const seen = new Set<JsonSchema>();
function withSeen<T>(schema: JsonSchema, fn: () => T): T {
  seen.add(schema);
  try {
    return fn();
  } finally {
    seen.delete(schema);
  }
}

const wrap = (type: string) => (/[|&]/.test(type) && !/^[{(]/.test(type) ? `(${type})` : type);

function single(type: string, schema: JsonSchema, indent: string, root: JsonSchema): string {
  switch (type) {
    case "string":
      return "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array": {
      if (schema.prefixItems) return `[${schema.prefixItems.map((item) => schemaToTs(item, indent, root)).join(", ")}]`;
      const items = Array.isArray(schema.items) ? undefined : schema.items;
      return `Array<${schemaToTs(items, indent, root)}>`;
    }
    case "object":
      return objectType(schema, indent, root);
    default:
      return "unknown";
  }
}

function objectType(schema: JsonSchema, indent: string, root: JsonSchema): string {
  const properties = Object.entries(schema.properties ?? {});
  const extra = schema.additionalProperties;
  if (properties.length === 0) {
    if (extra === false) return "Record<string, never>";
    return `Record<string, ${typeof extra === "object" ? schemaToTs(extra, indent, root) : "unknown"}>`;
  }
  const required = new Set(schema.required ?? []);
  const inner = `${indent}  `;
  const lines = properties.map(([name, property]) => {
    const doc = typeof property === "object" && typeof property.description === "string" ? `${inner}/** ${property.description.replaceAll("*/", "*\\/")} */\n` : "";
    return `${doc}${inner}${key(name)}${required.has(name) ? "" : "?"}: ${schemaToTs(property, inner, root)};`;
  });
  if (typeof extra === "object") lines.push(`${inner}[key: string]: unknown;`);
  return `{\n${lines.join("\n")}\n${indent}}`;
}
