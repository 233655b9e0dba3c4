export declare const SCHEMA_FILE: string;
export declare const DOCUMENTS_FILE: string;
export declare const OUTPUT_FILE: string;
/** The text of src/gql/graphql.ts as the current schema and operations make it. */
export declare function generateWebTypes(): Promise<string>;
