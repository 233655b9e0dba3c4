import { type DocumentNode, type FragmentDefinitionNode, Kind, parse, type SelectionSetNode } from 'graphql';

const CACHE_LIMIT = 1000;
const cache = new Map<string, number>();

/**
 * What a GraphQL HTTP request costs against the rate limit: one per root field (each alias
 * counts) of the operation it runs, summed over a batch. A request that does not parse costs 1;
 * GraphQL refuses it after that.
 */
export function graphqlCost(body: unknown): number {
  if (Array.isArray(body)) return Math.max(1, body.reduce<number>((sum, item) => sum + operationCost(item), 0));
  return operationCost(body);
}

function operationCost(request: unknown): number {
  if (typeof request !== 'object' || request === null) return 1;
  const { query, operationName } = request as { query?: unknown; operationName?: unknown };
  if (typeof query !== 'string') return 1;
  const key = `${typeof operationName === 'string' ? operationName : ''}\u0000${query}`;
  let cost = cache.get(key);
  if (cost === undefined) {
    cost = rootFieldCount(query, typeof operationName === 'string' ? operationName : undefined);
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
    cache.set(key, cost);
  }
  return cost;
}

function rootFieldCount(query: string, operationName: string | undefined): number {
  let document: DocumentNode;
  try {
    document = parse(query, { noLocation: true });
  } catch {
    return 1;
  }
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  const operation = operationName === undefined ? (operations.length === 1 ? operations[0] : undefined) : operations.find((o) => o.name?.value === operationName);
  if (!operation) return 1;
  const fragments = new Map(
    document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]),
  );
  // Each fragment is counted once and remembered: nested spreads cannot make this exponential.
  const fragmentCost = new Map<string, number>();
  const count = (set: SelectionSetNode): number => {
    let n = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) n += 1;
      else if (selection.kind === Kind.INLINE_FRAGMENT) n += count(selection.selectionSet);
      else {
        const name = selection.name.value;
        let cost = fragmentCost.get(name);
        if (cost === undefined) {
          fragmentCost.set(name, 0); // a fragment that spreads itself is refused by validation
          cost = fragments.has(name) ? count(fragments.get(name)!.selectionSet) : 0;
          fragmentCost.set(name, cost);
        }
        n += cost;
      }
    }
    return Math.min(n, Number.MAX_SAFE_INTEGER);
  };
  return Math.max(1, count(operation.selectionSet));
}
