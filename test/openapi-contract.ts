// The committed OpenAPI document against real answers: each REST exchange a test recorded (the e2e
// client's recorder) is looked up by its route; a success must have its status documented for
// that route and a JSON body valid against the documented schema; an error must be a problem
// document (errors are one vocabulary, not documented per route).
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import type { Exchange } from './e2e/clients.js';

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: object }> }>;
}
interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, object> };
}

const doc = JSON.parse(readFileSync(new URL('../apps/api/openapi.json', import.meta.url), 'utf8')) as OpenApi;
// OpenAPI 3.0 schemas as JSON Schema: `nullable` spelled as a null type; `example` and
// `deprecated` are notes; formats unchecked.
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema({ $id: 'openapi', components: asJsonSchema(doc.components) });

const routes = Object.keys(doc.paths).map((template) => ({
  template,
  // A literal segment wins over a parameter (`/lobbies/by-code/{code}` before `/lobbies/{id}`).
  literals: template.split('/').filter((s) => s !== '' && !s.startsWith('{')).length,
  pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));
routes.sort((a, b) => b.literals - a.literals);

export interface ContractAnswer {
  route: string;
  method: string;
  status: number;
}

/** What contradicts the document in `exchanges`, as lines to read, and the (route, method, status) checked. */
export function checkAgainstOpenApi(exchanges: readonly Exchange[]): { problems: string[]; checked: ContractAnswer[] } {
  const problems: string[] = [];
  const checked: ContractAnswer[] = [];
  for (const exchange of exchanges) {
    if (exchange.status === undefined || exchange.label === 'gql') continue;
    const [method, url] = exchange.label.split(' ');
    const path = url.split('?')[0];
    const route = routes.find((r) => r.pattern.test(path));
    const operation = route ? doc.paths[route.template][method.toLowerCase()] : undefined;
    const what = `${method} ${route?.template ?? path} → ${exchange.status}`;
    if (!route || !operation) {
      if (exchange.status !== 404) problems.push(`${what}: no such operation in the document`);
      continue;
    }
    checked.push({ route: route.template, method, status: exchange.status });
    if (exchange.status >= 400) {
      if (!exchange.type?.includes('application/problem+json')) problems.push(`${what}: an error that is not a problem document`);
      continue;
    }
    const documented = operation.responses?.[String(exchange.status)];
    if (!documented) {
      problems.push(`${what}: documented are ${Object.keys(operation.responses ?? {}).join(', ')}`);
      continue;
    }
    const schema = documented.content?.['application/json']?.schema;
    if (!schema || !exchange.type?.includes('application/json')) continue;
    const validate = ajv.compile(rebase(schema));
    if (!validate(JSON.parse(exchange.response))) problems.push(`${what}: the body does not match the schema: ${ajv.errorsText(validate.errors)}`);
  }
  return { problems, checked };
}

/** The schema with `nullable` as JSON Schema says it and `#/components/…` pointed into the document added above. */
function rebase(schema: object): object {
  return asJsonSchema(JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/components/', '"$ref":"openapi#/components/')));
}

function asJsonSchema(value: any): any {
  if (Array.isArray(value)) return value.map(asJsonSchema);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) if (key !== 'nullable') out[key] = asJsonSchema(child);
  if (value.nullable !== true) return out;
  // OpenAPI 3.0 writes a nullable reference as `nullable, type: object, allOf: [$ref]`.
  if (typeof out.type === 'string' && !out.allOf && !out.$ref) return { ...out, type: [out.type, 'null'], ...(out.enum ? { enum: [...(out.enum as unknown[]), null] } : {}) };
  return { anyOf: [out, { type: 'null' }] };
}
