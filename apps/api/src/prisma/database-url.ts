/** The URL of the database this process uses, resolved in main.ts (embedded or DATABASE_URL). */
export const DATABASE_URL = Symbol('DATABASE_URL');
