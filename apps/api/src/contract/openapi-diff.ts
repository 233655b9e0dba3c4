/**
 * The breaking changes between two OpenAPI 3.0 documents, for the part of OpenAPI this server's
 * document uses: paths and methods, parameters, request bodies and success responses, with
 * schemas of objects, arrays, enums, `allOf` and `$ref`s into `components.schemas` (why our own
 * differ and not a package: docs/decisions/api-contract.md).
 *
 * A change is judged from the client's side. What a client sends (parameters, request bodies)
 * breaks when the server accepts less than before: a parameter or field removed (unknown fields
 * are refused), one made required or added as required, a type, an enum or a bound narrowed.
 * What a client receives (responses) breaks when it may get what it did not before: a field
 * removed or no longer always present, a type changed, null where there was none. Additions
 * (routes, optional parameters and fields, response fields, enum values in a response) do not
 * break: a client ignores what it does not know.
 */

type Json = Record<string, unknown>;
type Schema = Json;
/** Requests are what the client sends, responses what it receives: the rules run in opposite directions. */
type Side = 'request' | 'response';

interface OpenApiDocument {
  paths?: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, Schema> };
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** Every breaking change from `before` to `after`, each a sentence naming the route and what broke. */
export function breakingRestChanges(beforeDocument: object, afterDocument: object): string[] {
  const [before, after] = [beforeDocument as OpenApiDocument, afterDocument as OpenApiDocument];
  const found: string[] = [];
  // A path parameter's name is not part of the URL a client calls: /games/{id} and /games/{gameId}
  // are the same route.
  const afterPaths = new Map(Object.entries(after.paths ?? {}).map(([path, item]) => [routeKey(path), item]));
  for (const [path, beforeItem] of Object.entries(before.paths ?? {})) {
    const afterItem = afterPaths.get(routeKey(path)) as Json | undefined;
    for (const method of METHODS) {
      const beforeOp = beforeItem[method] as Json | undefined;
      if (!beforeOp) continue;
      const route = `${method.toUpperCase()} ${path}`;
      const afterOp = afterItem?.[method] as Json | undefined;
      if (!afterOp) {
        found.push(`REST: ${route} was removed`);
        continue;
      }
      const differ = new SchemaDiffer(before, after, (what) => found.push(`REST: ${route} ${what}`));
      differ.operation(beforeOp, afterOp);
    }
  }
  return found;
}

function routeKey(path: string): string {
  return path.replace(/\{[^}]*\}/g, '{}');
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
}

class SchemaDiffer {
  /** $ref pairs being compared: a schema that contains itself is compared once. */
  private readonly comparing = new Set<string>();

  constructor(
    private readonly beforeDoc: OpenApiDocument,
    private readonly afterDoc: OpenApiDocument,
    private readonly report: (what: string) => void,
  ) {}

  operation(before: Json, after: Json): void {
    this.parameters((before.parameters as Parameter[] | undefined) ?? [], (after.parameters as Parameter[] | undefined) ?? []);
    this.requestBody(before.requestBody as Json | undefined, after.requestBody as Json | undefined);
    this.responses((before.responses as Json | undefined) ?? {}, (after.responses as Json | undefined) ?? {});
  }

  private parameters(before: Parameter[], after: Parameter[]): void {
    // Header names are case-insensitive; a path parameter is matched by its place in the URL, not its name.
    const keyOf = (p: Parameter, list: Parameter[]) =>
      p.in === 'path' ? `path:${list.filter((q) => q.in === 'path').indexOf(p)}` : `${p.in}:${p.in === 'header' ? p.name.toLowerCase() : p.name}`;
    const afterByKey = new Map(after.map((p) => [keyOf(p, after), p]));
    const beforeKeys = new Set(before.map((p) => keyOf(p, before)));
    for (const old of before) {
      const now = afterByKey.get(keyOf(old, before));
      const label = `${old.in} parameter \`${old.name}\``;
      if (!now) {
        this.report(`${label} was removed`);
        continue;
      }
      if (!old.required && now.required) this.report(`${label} became required`);
      this.schema(old.schema, now.schema, 'request', { base: label, path: '' });
    }
    for (const added of after) {
      if (added.required && !beforeKeys.has(keyOf(added, after))) this.report(`new required ${added.in} parameter \`${added.name}\``);
    }
  }

  private requestBody(before: Json | undefined, after: Json | undefined): void {
    if (!after) {
      if (before) this.report('request body was removed');
      return;
    }
    if (!before) {
      if (after.required) this.report('new required request body');
      return;
    }
    if (!before.required && after.required) this.report('request body became required');
    const beforeContent = (before.content as Record<string, Json> | undefined) ?? {};
    const afterContent = (after.content as Record<string, Json> | undefined) ?? {};
    for (const [type, media] of Object.entries(beforeContent)) {
      const now = afterContent[type];
      if (!now) this.report(`request body no longer takes ${type}`);
      else this.schema(media.schema as Schema | undefined, now.schema as Schema | undefined, 'request', { base: 'request body', path: '' });
    }
  }

  private responses(before: Json, after: Json): void {
    for (const [status, response] of Object.entries(before)) {
      // Only what a successful call answers is a promise; errors are one problem document everywhere.
      if (!/^2\d\d$/.test(status)) continue;
      const now = after[status] as Json | undefined;
      if (!now) {
        this.report(`response ${status} was removed`);
        continue;
      }
      const beforeContent = ((response as Json).content as Record<string, Json> | undefined) ?? {};
      const afterContent = (now.content as Record<string, Json> | undefined) ?? {};
      for (const [type, media] of Object.entries(beforeContent)) {
        const nowMedia = afterContent[type];
        if (!nowMedia) this.report(`response ${status} no longer answers ${type}`);
        else this.schema(media.schema as Schema | undefined, nowMedia.schema as Schema | undefined, 'response', { base: `response ${status}`, path: '' });
      }
    }
  }

  /** Compares two schemas at a place: "request body" and the field path `options.target`. */
  schema(beforeRaw: Schema | undefined, afterRaw: Schema | undefined, side: Side, at: Place): void {
    if (!beforeRaw || !afterRaw) return;
    const pairKey = `${refOf(beforeRaw)}|${refOf(afterRaw)}|${side}`;
    const recursive = refOf(beforeRaw) !== '' && refOf(afterRaw) !== '';
    if (recursive && this.comparing.has(pairKey)) return;
    if (recursive) this.comparing.add(pairKey);
    try {
      const before = resolve(this.beforeDoc, beforeRaw);
      const after = resolve(this.afterDoc, afterRaw);
      this.scalar(before, after, side, label(at));
      this.object(before, after, side, at);
      if (before.items && after.items) this.schema(before.items as Schema, after.items as Schema, side, { ...at, path: `${at.path}[]` });
    } finally {
      if (recursive) this.comparing.delete(pairKey);
    }
  }

  private scalar(before: Schema, after: Schema, side: Side, where: string): void {
    const beforeTypes = typesOf(before);
    const afterTypes = typesOf(after);
    if (beforeTypes && afterTypes) {
      // A request narrows when something accepted before is refused; a response when it may now
      // answer a type the client did not expect.
      const [from, to] = side === 'request' ? [beforeTypes, afterTypes] : [afterTypes, beforeTypes];
      if ([...from].some((t) => !to.has(t) && !(t === 'integer' && to.has('number')))) {
        this.report(`${where} type changed from ${[...beforeTypes].join('|')} to ${[...afterTypes].join('|')}`);
      }
    } else if (side === 'request' && !beforeTypes && afterTypes) {
      this.report(`${where} now must be ${[...afterTypes].join('|')}`);
    }

    const beforeNullable = before.nullable === true;
    const afterNullable = after.nullable === true;
    if (side === 'request' && beforeNullable && !afterNullable) this.report(`${where} no longer takes null`);
    if (side === 'response' && !beforeNullable && afterNullable) this.report(`${where} may now be null`);

    // A request narrows when a format is added or changed; a response when one is dropped or changed.
    const formatNarrowed = side === 'request' ? after.format !== undefined : before.format !== undefined;
    if (before.format !== after.format && formatNarrowed) {
      this.report(`${where} format changed from ${String(before.format ?? 'none')} to ${String(after.format ?? 'none')}`);
    }

    const beforeEnum = before.enum as unknown[] | undefined;
    const afterEnum = after.enum as unknown[] | undefined;
    if (side === 'request') {
      if (afterEnum && !beforeEnum) this.report(`${where} now takes only ${afterEnum.map(String).join(', ')}`);
      for (const value of beforeEnum ?? []) {
        if (afterEnum && !afterEnum.includes(value)) this.report(`${where} enum value \`${String(value)}\` was removed`);
      }
      this.bounds(before, after, where);
    } else if (beforeEnum && !afterEnum) {
      this.report(`${where} is no longer one of ${beforeEnum.map(String).join(', ')}`);
    }
    // A response's enum may grow: a client handles a value it does not know (docs/api.md).
  }

  /** Bounds on what a client sends: raised minimums and lowered maximums refuse what passed before. */
  private bounds(before: Schema, after: Schema, where: string): void {
    const lower = ['minimum', 'minLength', 'minItems', 'minProperties'] as const;
    const upper = ['maximum', 'maxLength', 'maxItems', 'maxProperties'] as const;
    for (const bound of lower) {
      const [b, a] = [before[bound] as number | undefined, after[bound] as number | undefined];
      if (a !== undefined && (b === undefined || a > b)) this.report(`${where} ${bound} raised from ${b ?? 'none'} to ${a}`);
    }
    for (const bound of upper) {
      const [b, a] = [before[bound] as number | undefined, after[bound] as number | undefined];
      if (a !== undefined && (b === undefined || a < b)) this.report(`${where} ${bound} lowered from ${b ?? 'none'} to ${a}`);
    }
    if (after.pattern !== undefined && after.pattern !== before.pattern) this.report(`${where} pattern changed to ${String(after.pattern)}`);
  }

  private object(before: Schema, after: Schema, side: Side, at: Place): void {
    const beforeProps = (before.properties as Record<string, Schema> | undefined) ?? {};
    const afterProps = (after.properties as Record<string, Schema> | undefined) ?? {};
    const beforeRequired = new Set((before.required as string[] | undefined) ?? []);
    const afterRequired = new Set((after.required as string[] | undefined) ?? []);
    const field = (name: string): Place => ({ base: at.base, path: at.path === '' ? name : `${at.path}.${name}` });
    for (const [name, schema] of Object.entries(beforeProps)) {
      const now = afterProps[name];
      if (!now) {
        // A request field removed is refused from then on (unknown fields are BAD_INPUT).
        this.report(`${label(field(name))} was removed`);
        continue;
      }
      if (side === 'request' && !beforeRequired.has(name) && afterRequired.has(name)) this.report(`${label(field(name))} became required`);
      if (side === 'response' && beforeRequired.has(name) && !afterRequired.has(name)) this.report(`${label(field(name))} may now be absent`);
      this.schema(schema, now, side, field(name));
    }
    if (side === 'request') {
      for (const name of afterRequired) if (!(name in beforeProps)) this.report(`new required ${label(field(name))}`);
    }
  }
}

/** Where in a request or response: "request body" and `options.target`. */
interface Place {
  base: string;
  path: string;
}

function label(at: Place): string {
  return at.path === '' ? at.base : `${at.base} field \`${at.path}\``;
}

function refOf(schema: Schema): string {
  if (typeof schema.$ref === 'string') return schema.$ref;
  const all = schema.allOf as Schema[] | undefined;
  return all?.length === 1 && typeof all[0].$ref === 'string' ? all[0].$ref : '';
}

/**
 * A schema with its `$ref` followed and its `allOf` merged (Nest writes `allOf: [{ $ref }]` to put
 * a description beside a reference).
 */
function resolve(doc: OpenApiDocument, schema: Schema, depth = 0): Schema {
  if (depth > 32) throw new Error('OpenAPI schema references nest too deeply');
  if (typeof schema.$ref === 'string') {
    const name = /^#\/components\/schemas\/(.+)$/.exec(schema.$ref)?.[1];
    const target = name === undefined ? undefined : doc.components?.schemas?.[name];
    if (!target) throw new Error(`OpenAPI reference ${schema.$ref} cannot be resolved`);
    return resolve(doc, target, depth + 1);
  }
  const all = schema.allOf as Schema[] | undefined;
  if (!all) return schema;
  const merged: Schema = { ...schema };
  delete merged.allOf;
  for (const part of all.map((s) => resolve(doc, s, depth + 1))) {
    for (const [key, value] of Object.entries(part)) {
      if (key === 'properties') merged.properties = { ...(merged.properties as Json | undefined), ...(value as Json) };
      else if (key === 'required') merged.required = [...((merged.required as string[] | undefined) ?? []), ...(value as string[])];
      else if (!(key in merged)) merged[key] = value;
    }
  }
  return merged;
}

function typesOf(schema: Schema): Set<string> | null {
  if (schema.type === undefined) return schema.properties ? new Set(['object']) : null;
  return new Set(Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string]);
}
