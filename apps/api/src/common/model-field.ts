import {
  Field,
  type FieldOptions,
  Float,
  GraphQLISODateTime,
  ID,
  Int,
  ObjectType,
  registerEnumType,
  type ReturnTypeFunc,
} from '@nestjs/graphql';
import { ApiProperty, type ApiPropertyOptions, ApiSchema } from '@nestjs/swagger';

/**
 * One declaration per field for both surfaces: `@Prop` applies `@Field` (GraphQL) and
 * `@ApiProperty` (OpenAPI) from one description; `@Model` applies `@ObjectType` and gives the
 * OpenAPI schema the same description.
 *
 * What each option means on each surface:
 *
 * | option         | GraphQL                          | OpenAPI                                              |
 * |----------------|----------------------------------|------------------------------------------------------|
 * | type thunk     | the field type, as for `@Field`  | Int/Float → number, ID/String → string (ID: `format: uuid`), Boolean, DateTime → date-time, a class → its schema, an enum → its values; `[T]` → array |
 * | (no thunk)     | reflected from the TS type       | reflected from the TS type                           |
 * | `nullable`     | `nullable` (true/items/itemsAndList) | `nullable: true` on the property; on a scalar or enum list's items for `items` |
 * | `optional`     | nullable (unless `nullable` says more) | `required: false` (the key may be absent)      |
 * | `description`  | description                      | description                                          |
 * | `example`      | —                                | example                                              |
 * | `defaultValue` | defaultValue                     | `default`, `required: false`                         |
 * | `format`       | —                                | format                                               |
 * | `enumRef`      | —                                | the enum as a named component (its GraphQL name and description) instead of inline values; the field's description stays GraphQL-only |
 * | `api`          | —                                | further OpenAPI-only keywords (minimum, maxLength, …); they win over the above |
 *
 * So `x?: T` is `optional`, `x: T | null` is `nullable`, `x?: T | null` is both.
 */
export interface PropOptions {
  nullable?: boolean | 'items' | 'itemsAndList';
  optional?: boolean;
  description?: string;
  example?: unknown;
  defaultValue?: unknown;
  format?: string;
  enumRef?: boolean;
  api?: ApiPropertyOptions;
}

/** Enum objects registered through `registerEnum`, with their GraphQL name and description (for `enumRef`). */
const registeredEnums = new WeakMap<object, { name: string; description?: string }>();

/** `registerEnumType`, remembering name and description so `@Prop(() => E, { enumRef: true })` can use them. */
export function registerEnum(ref: object, options: { name: string; description?: string }): void {
  registerEnumType(ref, options);
  registeredEnums.set(ref, options);
}

type Scalar = 'number' | 'string' | 'boolean';

/** The OpenAPI view of one (non-list) GraphQL type reference. */
function describe(ref: unknown): { type?: unknown; scalar?: Scalar; format?: string; enum?: unknown[]; enumOf?: object } {
  if (ref === Int || ref === Float || ref === Number) return { type: Number, scalar: 'number' };
  if (ref === ID) return { type: String, scalar: 'string', format: 'uuid' };
  if (ref === String) return { type: String, scalar: 'string' };
  if (ref === Boolean) return { type: Boolean, scalar: 'boolean' };
  if (ref === GraphQLISODateTime || ref === Date) return { type: Date };
  if (typeof ref === 'function') return { type: ref };
  if (ref !== null && typeof ref === 'object' && !Array.isArray(ref) && !('serialize' in ref)) {
    return { scalar: 'string', enum: Object.values(ref), enumOf: ref };
  }
  throw new Error(`@Prop: no OpenAPI mapping for the GraphQL type ${String(ref)}`);
}

/** `@Field` and `@ApiProperty` from one description; see the table above. */
export function Prop(options?: PropOptions): PropertyDecorator;
export function Prop(type: ReturnTypeFunc, options?: PropOptions): PropertyDecorator;
export function Prop(typeOrOptions?: ReturnTypeFunc | PropOptions, maybeOptions?: PropOptions): PropertyDecorator {
  const typeFn = typeof typeOrOptions === 'function' ? typeOrOptions : undefined;
  const o = (typeof typeOrOptions === 'function' ? maybeOptions : typeOrOptions) ?? {};

  const field: { nullable?: PropOptions['nullable']; description?: string; defaultValue?: unknown } = {};
  const nullable = o.nullable ?? (o.optional ? true : undefined);
  if (nullable !== undefined) field.nullable = nullable;
  if (o.description !== undefined) field.description = o.description;
  if (o.defaultValue !== undefined) field.defaultValue = o.defaultValue;

  // Key order matters: it is the order of the keywords in the served OpenAPI document.
  const api: Record<string, unknown> = {};
  let description = o.description;
  if (typeFn) {
    let ref: unknown = typeFn();
    let depth = 0;
    while (Array.isArray(ref)) {
      ref = ref[0];
      depth++;
    }
    if (ref === undefined) throw new Error('@Prop: the type thunk returned undefined (an import cycle?)');
    const d = describe(ref);
    if (depth > 1) {
      if (!d.scalar) throw new Error('@Prop: nested lists are supported of scalars and enums only');
      let items: Record<string, unknown> = { type: d.scalar, ...(d.enum ? { enum: d.enum } : {}) };
      for (let i = 1; i < depth; i++) items = { type: 'array', items };
      api.type = 'array';
      api.items = items;
    } else if (depth === 1 && d.scalar && !o.enumRef && (o.nullable === 'items' || o.nullable === 'itemsAndList')) {
      // A list of scalars or enum values that may hold nulls says so on its items (the schema is
      // checked against answers); a nullable enum lists null among its values, as OpenAPI 3.0 asks.
      api.type = 'array';
      api.items = { type: d.scalar, ...(d.enum ? { enum: [...d.enum, null] } : {}), nullable: true };
    } else if (d.enum) {
      api.enum = d.enum;
      if (o.enumRef) {
        const registered = registeredEnums.get(d.enumOf!);
        if (!registered) throw new Error('@Prop: enumRef needs an enum registered with registerEnum');
        api.enumName = registered.name;
        // Swagger gives the shared enum schema the description of the first property naming it,
        // so every such property carries the enum's own description, not the field's.
        description = registered.description;
      }
      if (depth === 1) api.isArray = true;
    } else if (o.api?.enum !== undefined) {
      // Allowed values of a GraphQL String: OpenAPI takes the type from the values.
      api.enum = o.api.enum;
    } else {
      api.type = depth === 1 ? [d.type] : d.type;
    }
    const format = o.format ?? d.format;
    if (format !== undefined) api.format = format;
  } else if (o.format !== undefined) {
    api.format = o.format;
  }
  if (o.nullable === true || o.nullable === 'itemsAndList') api.nullable = true;
  if (o.optional || o.defaultValue !== undefined) api.required = false;
  if (o.example !== undefined) api.example = o.example;
  if (o.defaultValue !== undefined) api.default = o.defaultValue;
  Object.assign(api, o.api);
  if (description !== undefined && o.api?.description === undefined) api.description = description;

  const applyField = typeFn ? Field(typeFn, field as FieldOptions) : Field(field as FieldOptions);
  const applyApi = ApiProperty(api as ApiPropertyOptions);
  return (target, key) => {
    applyField(target, key);
    applyApi(target, key);
  };
}

interface TypeOptions {
  description?: string;
  isAbstract?: boolean;
}

/** `@ObjectType`, and the same description on the OpenAPI schema (which keeps the class name). */
export function Model(options?: TypeOptions): ClassDecorator;
export function Model(name: string, options?: TypeOptions): ClassDecorator;
export function Model(nameOrOptions?: string | TypeOptions, maybeOptions?: TypeOptions): ClassDecorator {
  const name = typeof nameOrOptions === 'string' ? nameOrOptions : undefined;
  const options = (typeof nameOrOptions === 'string' ? maybeOptions : nameOrOptions) ?? {};
  const applyType = name ? ObjectType(name, options) : ObjectType(options);
  const applySchema = options.description !== undefined ? ApiSchema({ description: options.description }) : undefined;
  return (target) => {
    applyType(target);
    applySchema?.(target);
  };
}

type KeysOfUnion<U> = U extends unknown ? keyof U : never;
type ValueOfUnion<U, K extends PropertyKey> = U extends unknown ? (K extends keyof U ? U[K] : never) : never;

/**
 * A union of object types (the rules' LegalMovesView, EventView) as the one flat object GraphQL
 * and OpenAPI show: keys every member has stay as they are, the others become optional. A model
 * class `implements Flattened<U>` so the compiler checks it against the rules' type.
 */
export type Flattened<U> = Pick<U, keyof U> & { [K in Exclude<KeysOfUnion<U>, keyof U>]?: ValueOfUnion<U, K> };
