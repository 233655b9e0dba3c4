// The committed OpenAPI document against real answers. Every REST answer the tests' shared clients
// receive (test/e2e/clients.ts's `http().rest`, test/app.ts's `rest`) is checked as it arrives: a
// success must have its status documented for its route, its content type among the documented
// ones and a JSON body valid against the documented schema; an error must be a problem document
// (errors are one vocabulary, not documented per route). Only the problems and the distinct
// (method, route, status) checked are kept; each test file that imports a client fails in an
// afterAll when any answer contradicted the document.
import { appendFileSync, readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { afterAll, beforeAll } from 'vitest';
import { everyTestFile } from './per-file.js';

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

/** One REST answer as the check needs it (the body parsed when it was JSON, else its text). */
export interface RestAnswer {
  method: string;
  /** The request's path, with or without its query. */
  path: string;
  status: number;
  /** The content-type header ('' when none). */
  type: string;
  body: unknown;
}

export interface ContractAnswer {
  route: string;
  method: string;
  status: number;
}

// One compiled validator per documented response: compiling per answer would cost a compile each
// time and grow ajv's cache without bound.
const validators = new Map<object, ValidateFunction>();

/** What in `answer` contradicts the document (null when nothing), and the operation it was checked against. */
export function checkAnswer(answer: RestAnswer): { problem: string | null; checked: ContractAnswer | null } {
  const method = answer.method.toUpperCase();
  // The path as fetch sent it (dot segments resolved), a trailing slash dropped as Express does.
  const path = new URL(`http://localhost${answer.path}`).pathname.replace(/(.)\/$/, '$1');
  // GraphQL has its own error vocabulary (errors[].extensions.code), not the REST document's.
  if (path === '/graphql') return { problem: null, checked: null };
  const route = routes.find((r) => r.pattern.test(path));
  // A HEAD answer is the GET's without its body.
  const head = method === 'HEAD';
  const operation = route ? doc.paths[route.template][head ? 'get' : method.toLowerCase()] : undefined;
  const what = `${method} ${route?.template ?? path} → ${answer.status}`;
  const media = answer.type.split(';')[0].trim().toLowerCase();
  const isProblem = media === 'application/problem+json';
  const checked = route && operation ? { route: route.template, method, status: answer.status } : null;
  if (answer.status >= 400) {
    if (!isProblem) return { problem: `${what}: an error answered as ${media || 'no content type'}, not application/problem+json`, checked };
    const body = answer.body as { status?: unknown; code?: unknown } | null;
    if (head) return { problem: null, checked };
    if (body?.status !== answer.status || typeof body.code !== 'string') {
      return { problem: `${what}: the problem document lacks a code or says another status (${JSON.stringify(body?.status)})`, checked };
    }
    return { problem: null, checked };
  }
  // Outside /api/v1 the document describes only what it lists (/health); the document itself, the
  // metrics and the web client are other surfaces.
  if (!checked || !operation) return { problem: path.startsWith('/api/v1/') || route ? `${what}: no such operation in the document` : null, checked };
  const documented = operation.responses?.[String(answer.status)];
  if (!documented) return { problem: `${what}: documented are ${Object.keys(operation.responses ?? {}).join(', ')}`, checked };
  const types = Object.keys(documented.content ?? {});
  if (types.length > 0 && !types.includes(media)) return { problem: `${what}: answered as ${media || 'no content type'}, documented ${types.join(', ')}`, checked };
  const schema = documented.content?.[media]?.schema;
  if (!schema || media !== 'application/json' || head) return { problem: null, checked };
  let validate = validators.get(schema);
  if (!validate) validators.set(schema, (validate = ajv.compile(rebase(schema))));
  if (!validate(answer.body)) return { problem: `${what}: the body does not match the schema: ${schemaErrors(validate)}`, checked };
  return { problem: null, checked };
}

// This test file's findings (emptied as each file starts: files may share this module, see
// test/per-file.ts). Problems are distinct lines, a bounded number of them; the checked
// operations are bounded by the document.
const MAX_PROBLEMS = 50;
const problems = new Set<string>();
let problemsLeftOut = 0;
const checked = new Map<string, ContractAnswer>();

/** Checks one answer now and keeps only what the file's afterAll needs. */
export function noteAnswer(answer: RestAnswer): void {
  const result = checkAnswer(answer);
  if (result.checked) checked.set(`${result.checked.method} ${result.checked.route} ${result.checked.status}`, result.checked);
  if (result.problem === null || problems.has(result.problem)) return;
  if (problems.size < MAX_PROBLEMS) problems.add(result.problem);
  else problemsLeftOut++;
}

/** The contradictions noted so far in this test file. */
export function contractProblems(): string[] {
  return [...problems, ...(problemsLeftOut > 0 ? [`…and ${problemsLeftOut} more`] : [])];
}

/** The distinct (method, route, status) noted so far in this test file. */
export function contractChecked(): ContractAnswer[] {
  return [...checked.values()];
}

/**
 * Makes the calling test file, and every later one sharing this module, fail after its tests when
 * any REST answer contradicted the document (called at the top level of the shared clients'
 * modules). With OPENAPI_CONTRACT_CHECKED=path, the (method, route, status) checked are appended
 * there, one a line, to count what a run covers.
 */
export function failOnContractProblems(): void {
  everyTestFile(contractHooks);
}

function contractHooks(): void {
  beforeAll(() => {
    problems.clear();
    problemsLeftOut = 0;
    checked.clear();
  });
  afterAll(() => {
    const out = process.env.OPENAPI_CONTRACT_CHECKED;
    if (out && checked.size > 0) appendFileSync(out, [...checked.keys()].map((key) => `${key}\n`).join(''));
    const found = contractProblems();
    if (found.length > 0) throw new Error(`REST answers contradict apps/api/openapi.json:\n  ${found.join('\n  ')}`);
  });
}

/** ajv's errors, each said once whatever the list index it was found at (so one fault is one problem line). */
function schemaErrors(validate: ValidateFunction): string {
  const lines = (validate.errors ?? []).map((e) => `${e.instancePath.replace(/\/\d+(?=\/|$)/g, '/*') || '(the body)'} ${e.message ?? ''}`);
  return [...new Set(lines)].join(', ');
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
  if (typeof out.type === 'string' && !out.allOf && !out.$ref) {
    const values = out.enum as unknown[] | undefined;
    return { ...out, type: [out.type, 'null'], ...(values && !values.includes(null) ? { enum: [...values, null] } : {}) };
  }
  return { anyOf: [out, { type: 'null' }] };
}
