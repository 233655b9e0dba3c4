import { GraphQLScalarType, Kind, valueFromASTUntyped, type ValueNode } from 'graphql';

/** Any JSON value, for documents with their own format (a game record), checked by whoever reads them. */
export const JSONScalar = new GraphQLScalarType({
  name: 'JSON',
  description: 'A JSON value (an object, list, string, number, boolean or null)',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast: ValueNode, variables) => (ast.kind === Kind.NULL ? null : valueFromASTUntyped(ast, variables)),
});
