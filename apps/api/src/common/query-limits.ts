import type { ApolloServerPlugin } from '@apollo/server';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import type { RequestHandler } from 'express';
import {
  type ArgumentNode,
  type DefinitionNode,
  type DocumentNode,
  type ExecutionArgs,
  type FieldNode,
  type FragmentDefinitionNode,
  GraphQLError,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
  parse,
  specifiedRules,
  TypeInfo,
  validate,
  type ValidationContext,
  type ValidationRule,
  visit,
  visitWithTypeInfo,
} from 'graphql';
import type { AppConfig } from '../config/app-config.js';
import { DomainError } from './errors.js';
import { formatGraphQLError } from './graphql-errors.js';
import { PAGE_MAX } from './paging.js';
import { type QueryLimitName, queryTooComplex, tokenLimitError } from './query-too-complex.js';

/** What one GraphQL request may ask for (config: GRAPHQL_MAX_*). */
export type QueryLimits = AppConfig['graphqlLimits'];

/** Armor reports a rejection as an error of ours on the validation context, instead of throwing. */
function rejectAs(limit: QueryLimitName, max: number) {
  return {
    propagateOnRejection: false,
    onReject: [
      (context: ValidationContext | null, error: GraphQLError) => {
        const found = /found (\d+(?:\.\d+)?)/.exec(error.message);
        const domain = queryTooComplex(limit, max, found ? Math.ceil(Number(found[1])) : undefined);
        context?.reportError(new GraphQLError(domain.message, { originalError: domain }));
      },
    ],
  };
}

const NONE = {
  blockFieldSuggestion: { enabled: false },
  maxTokens: { enabled: false },
  costLimit: { enabled: false },
  maxAliases: { enabled: false },
  maxDirectives: { enabled: false },
  maxDepth: { enabled: false },
};

/**
 * Armor's cost limit multiplies a field's cost by its `first` argument, but only when that is a
 * literal. Here a page size given by a variable counts as PAGE_MAX and one left out as its
 * default, so every list field costs by its page size, and a document's cost does not depend on
 * its variables (Apollo validates a document once and caches the result).
 */
function costByPageSize(rule: ValidationRule): ValidationRule {
  return (context) => {
    const document = context.getDocument();
    const typeInfo = new TypeInfo(context.getSchema());
    const sized = visit(
      document,
      visitWithTypeInfo(typeInfo, {
        Field: {
          leave(node: FieldNode) {
            const declared = typeInfo.getFieldDef()?.args.find((arg) => arg.name === 'first');
            if (!declared) return undefined;
            const given = node.arguments?.find((arg) => arg.name.value === 'first');
            if (given?.value.kind === Kind.INT) return undefined;
            const size = given === undefined && typeof declared.defaultValue === 'number' ? declared.defaultValue : PAGE_MAX;
            const first: ArgumentNode = {
              kind: Kind.ARGUMENT,
              name: { kind: Kind.NAME, value: 'first' },
              value: { kind: Kind.INT, value: String(size) },
            };
            return { ...node, arguments: [first, ...(node.arguments ?? []).filter((arg) => arg !== given)] };
          },
        },
      }),
    ) as DocumentNode;
    const operations = new Map<DefinitionNode, DefinitionNode>(document.definitions.map((d, i) => [d, sized.definitions[i]]));
    const fragments = new Map(
      sized.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]),
    );
    const view = Object.create(context, { getFragment: { value: (name: string) => fragments.get(name) } }) as ValidationContext;
    const visitor = rule(view) as { OperationDefinition?: { enter?: (node: OperationDefinitionNode) => void } };
    return {
      OperationDefinition: {
        enter: (node) => visitor.OperationDefinition?.enter?.(operations.get(node) as OperationDefinitionNode),
      },
    };
  };
}

export interface GraphQLGuards {
  /** Added to graphql-js's own rules, on HTTP and on graphql-ws alike. */
  validationRules: ValidationRule[];
  /** Apollo plugins (armor's: no "did you mean" field suggestions in errors). */
  plugins: ApolloServerPlugin[];
  /** For `parse`: the token limit. */
  parseOptions: { maxTokens: number };
}

/** The limits as graphql-armor validation rules and parse options, for Apollo and graphql-ws. */
export function graphqlGuards(limits: QueryLimits): GraphQLGuards {
  const armor = new ApolloArmor({
    ...NONE,
    blockFieldSuggestion: { enabled: true },
    maxDepth: { n: limits.maxDepth, flattenFragments: true, ...rejectAs('depth', limits.maxDepth) },
    maxAliases: { n: limits.maxAliases, ...rejectAs('aliases', limits.maxAliases) },
    maxDirectives: { n: limits.maxDirectives, ...rejectAs('directives', limits.maxDirectives) },
  }).protect();
  const cost = new ApolloArmor({
    ...NONE,
    costLimit: { maxCost: limits.maxCost, flattenFragments: true, ...rejectAs('cost', limits.maxCost) },
  }).protect();
  return {
    validationRules: [...armor.validationRules, ...cost.validationRules.map(costByPageSize)],
    // Armor's types name Apollo's CommonJS build, ours its ESM build: the same plugin interface.
    plugins: armor.plugins as unknown as ApolloServerPlugin[],
    // Armor's own token counter throws from an Apollo hook, which Apollo answers with a 500;
    // graphql-js counts the same tokens while parsing and fails the parse instead.
    parseOptions: { maxTokens: limits.maxTokens },
  };
}

/** Validated documents kept per server for graphql-ws, each of a text this long at most: a few MB in all. */
const VALID_DOCUMENTS = 500;
const VALID_DOCUMENT_CHARS = 4096;

/** graphql-ws's subscribe message, as far as it is read here. */
interface SubscribePayload {
  query: string;
  operationName?: string | null;
  variables?: Record<string, unknown> | null;
}

/**
 * graphql-ws's `onSubscribe`: Apollo's parse and validation do not run on a socket, so the same
 * limits and rules are applied here. Errors come back with our codes (graphql-ws would otherwise
 * close the socket on a syntax error).
 */
export function guardSubscription(schema: () => GraphQLSchema, guards: GraphQLGuards) {
  const rules = [...specifiedRules, ...guards.validationRules];
  // Documents that passed, by their text, as Apollo keeps them for HTTP: a client sends the same
  // few operations again and again (a move over its socket), and every rule reads the document
  // alone (the cost rule takes the largest page where a size is a variable), never the variables.
  const valid = new Map<string, DocumentNode>();
  const checked = (query: string): DocumentNode | readonly GraphQLError[] => {
    const known = valid.get(query);
    if (known) {
      valid.delete(query); // re-inserted last: the Map's order is the eviction order
      valid.set(query, known);
      return known;
    }
    let document: DocumentNode;
    try {
      document = parse(query, guards.parseOptions);
    } catch (error) {
      if (!(error instanceof GraphQLError)) throw error;
      return [asClientError(error)];
    }
    const errors = validate(schema(), document, rules);
    if (errors.length > 0) return errors.map(asClientError);
    if (query.length <= VALID_DOCUMENT_CHARS) {
      if (valid.size >= VALID_DOCUMENTS) valid.delete(valid.keys().next().value!);
      valid.set(query, document);
    }
    return document;
  };
  return (payload: SubscribePayload): ExecutionArgs | readonly GraphQLError[] => {
    const document = checked(payload.query);
    if (!('kind' in document)) return document;
    return { schema: schema(), document, operationName: payload.operationName, variableValues: payload.variables };
  };
}

/** A parse or validation error of graphql-js: the client's (BAD_INPUT), or a limit it hit. */
function asClientError(error: GraphQLError): GraphQLError {
  if (error.originalError instanceof DomainError) return error;
  const domain = tokenLimitError(error.message) ?? new DomainError('BAD_INPUT', error.message);
  return new GraphQLError(error.message, { nodes: error.nodes, source: error.source, positions: error.positions, originalError: domain });
}

/**
 * Refuses a GraphQL response body over `maxBytes` (QUERY_TOO_COMPLEX, 400): the backstop behind
 * the cost limit, measured on the text Apollo is about to send.
 */
export function boundResponses(maxBytes: number): RequestHandler {
  return (_req, res, next) => {
    const send = res.send;
    res.send = function sendBounded(this: typeof res, body?: unknown) {
      if (typeof body === 'string' && body.length * 3 > maxBytes) {
        const bytes = Buffer.byteLength(body);
        if (bytes > maxBytes) {
          const domain = queryTooComplex('responseBytes', maxBytes, bytes);
          const error = formatGraphQLError({ message: domain.message }, new GraphQLError(domain.message, { originalError: domain }));
          this.status(domain.status).type('application/json');
          return send.call(this, JSON.stringify({ errors: [error] }));
        }
      }
      return send.call(this, body);
    };
    next();
  };
}
