// Generates src/lib/realtime/protocol.gen.ts, the types of every real-time event, from
// ../realtime.schema.json (written by `api realtime-schema` from the Rust enums ServerEvent and
// ClientEvent). Deterministic: the same schema always gives the same file, so check-generated.mjs
// and src/lib/realtime/protocol.gen.test.ts can compare it byte for byte.
//
//   node scripts/realtime-types.mjs           writes the file
//   generate(schema) (import)                 the file's text
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';

const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const schemaPath = path.resolve(webDir, '..', 'realtime.schema.json');
export const outputPath = path.resolve(webDir, 'src/lib/realtime/protocol.gen.ts');

/** `tsType`s the browser defines; every other one is a REST model of src/api/model. */
const DOM_TYPES = new Set(['RTCSessionDescriptionInit', 'RTCIceCandidateInit']);

const comment = (text, indent = '') =>
  text ? `${indent}/** ${text.replace(/\*\//g, '*\\/').replace(/\n/g, `\n${indent} * `)} */\n` : '';

const isIdentifier = (name) => /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name);
const key = (name) => (isIdentifier(name) ? name : JSON.stringify(name));

function union(types) {
  const unique = [...new Set(types)];
  return unique.length === 1 ? unique[0] : unique.map((t) => (t.includes('=>') ? `(${t})` : t)).join(' | ');
}

function typeOf(schema, ctx) {
  if (schema === true || schema === undefined) return 'unknown';
  if (schema === false) return 'never';
  if (Array.isArray(schema.type)) {
    return union(schema.type.map((type) => (type === 'null' ? 'null' : typeOf({ ...schema, type }, ctx))));
  }
  if (schema.tsType) {
    if (!DOM_TYPES.has(schema.tsType)) ctx.models.add(schema.tsType);
    return schema.tsType;
  }
  if (schema.$ref) {
    const name = schema.$ref.replace(/^#\/\$defs\//, '');
    ctx.refs.add(name);
    return name;
  }
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return union(schema.enum.map((v) => JSON.stringify(v)));
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives) return union(alternatives.map((s) => typeOf(s, ctx)));
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array': {
      const item = typeOf(schema.items, ctx);
      return /[ |&]/.test(item) ? `Array<${item}>` : `${item}[]`;
    }
    case 'object':
      return objectType(schema, ctx);
    default:
      if (Object.keys(schema).every((k) => ['description', 'title'].includes(k))) return 'unknown';
      throw new Error(`realtime-types: no TypeScript for the schema ${JSON.stringify(schema)}`);
  }
}

function objectType(schema, ctx) {
  const properties = Object.entries(schema.properties ?? {});
  if (properties.length === 0) return 'Record<string, never>';
  const required = new Set(schema.required ?? []);
  const fields = properties.map(
    ([name, property]) =>
      `${comment(property.description, '  ')}  ${key(name)}${required.has(name) ? '' : '?'}: ${typeOf(property, ctx)};`,
  );
  return `{\n${fields.join('\n')}\n}`;
}

/** One enum's `{name: data}` map, from its root schema's `oneOf` of `{event, data}` objects. */
function eventMap(root, ctx) {
  const lines = (root.oneOf ?? []).map((variant) => {
    const event = variant.properties?.event;
    const name = event?.const ?? event?.enum?.[0];
    if (typeof name !== 'string') throw new Error('realtime-types: a variant without an event name');
    const data = variant.properties.data === undefined ? 'Record<string, never>' : typeOf(variant.properties.data, ctx);
    return `${comment(variant.description, '  ')}  ${key(name)}: ${data};`;
  });
  return `{\n${lines.join('\n')}\n}`;
}

/** The file's text for a schema `{server, client}`, formatted as the repository's prettier does. */
export async function generate(schema) {
  const ctx = { refs: new Set(), models: new Set() };
  const defs = new Map();
  for (const side of ['server', 'client']) {
    for (const [name, def] of Object.entries(schema[side].$defs ?? {})) {
      if (defs.has(name) && JSON.stringify(defs.get(name)) !== JSON.stringify(def)) {
        throw new Error(`realtime-types: ${name} differs between server and client events; rename one in Rust`);
      }
      defs.set(name, def);
    }
  }
  const server = eventMap(schema.server, ctx);
  const client = eventMap(schema.client, ctx);
  const declarations = [...defs.keys()]
    .sort()
    .map((name) => `${comment(defs.get(name).description)}export type ${name} = ${typeOf(defs.get(name), ctx)};`);
  const names = (root) => (root.oneOf ?? []).map((v) => v.properties.event.const ?? v.properties.event.enum[0]);
  const models = [...ctx.models].sort();
  const text = [
    '// Generated by web/scripts/realtime-types.mjs from realtime.schema.json (`api realtime-schema`, the Rust',
    '// enums ServerEvent and ClientEvent of domain/src/realtime/protocol.rs). Do not edit: run scripts/generate.',
    '',
    models.length ? `import type { ${models.join(', ')} } from '@/api/model';\n` : '',
    ...declarations,
    '',
    `${comment(schema.server.description)}export type ServerEvents = ${server};`,
    '',
    `${comment(schema.client.description)}export type ClientEvents = ${client};`,
    '',
    `/** Every event name the server sends. */`,
    `export const SERVER_EVENT_NAMES = ${JSON.stringify(names(schema.server))} as const;`,
    '',
    `/** Every event name the server accepts. */`,
    `export const CLIENT_EVENT_NAMES = ${JSON.stringify(names(schema.client))} as const;`,
    '',
  ].join('\n');
  const options = (await prettier.resolveConfig(outputPath)) ?? {};
  return prettier.format(text, { ...options, parser: 'typescript' });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const schema = JSON.parse(readFileSync(schemaPath, 'utf8'));
  writeFileSync(outputPath, await generate(schema));
  console.log(`realtime-types: wrote ${path.relative(webDir, outputPath)}`);
}
