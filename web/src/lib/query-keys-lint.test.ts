import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { apiPathArray, onePatternForQueries } from '../../eslint-query-pattern.js';

// The one data pattern stays because ESLint (eslint.config.js) rejects the ways around it; these
// snippets go through the same selectors, as a feature's file and as a test.
const linter = new Linter({ configType: 'flat' });
const configFor = (rules: typeof onePatternForQueries) => ({
  files: ['**/*.ts'],
  languageOptions: { parser: tseslint.parser },
  rules: { 'no-restricted-syntax': ['error', ...rules] as Linter.RuleEntry },
});

function errors(code: string, rules = onePatternForQueries): number {
  const messages = linter.verify(code, configFor(rules), 'example.ts');
  if (messages.some((m) => m.ruleId !== 'no-restricted-syntax')) throw new Error(JSON.stringify(messages));
  return messages.length;
}

describe('the query pattern rule', () => {
  it('rejects hand-typed keys and inline reads', () => {
    expect(errors("export const f = (qc: any) => qc.invalidateQueries({ queryKey: ['x'] });")).toBe(1);
    expect(errors("export const k = () => ['/api/user/dashboard'] as const;")).toBe(1);
    expect(errors('export const f = (useQuery: any, k: any) => useQuery({ queryKey: k, queryFn: () => 1 });')).toBe(1);
    expect(errors('export const f = (qc: any, k: any) => qc.fetchQuery({ queryKey: k, queryFn: () => 1 });')).toBe(1);
  });

  it('accepts factories, queryOptions and invalidation through them', () => {
    const code = `
      import { queryOptions } from '@tanstack/react-query';
      import { apiKey } from '@/lib/query-keys';
      const keys = { one: (id: string) => apiKey('/x/' + id) };
      export const q = (id: string) => queryOptions({ queryKey: keys.one(id), queryFn: () => id });
      export const f = (qc: any, useQuery: any) => [qc.invalidateQueries({ queryKey: keys.one('1') }), useQuery({ ...q('1') })];
    `;
    expect(errors(code)).toBe(0);
  });

  it("lets tests list the '/api/...' paths a screen fetched", () => {
    const testRules = onePatternForQueries.filter((rule) => rule !== apiPathArray);
    expect(errors("export const paths = ['/api/notifications/a'];", testRules)).toBe(0);
  });
});
