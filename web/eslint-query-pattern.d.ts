// Types of eslint-query-pattern.js for src/lib/query-keys-lint.test.ts.
export type RestrictedSyntax = { selector: string; message: string };
export const apiPathArray: RestrictedSyntax;
export const onePatternForQueries: RestrictedSyntax[];
