// The `no-restricted-syntax` selectors that keep the web app's one data pattern; eslint.config.js uses them
// and src/lib/query-keys-lint.test.ts shows what they accept and reject.

/**
 * One data pattern: every read is one `queryOptions` in the api.ts of the feature (or shared module)
 * that owns it, and every query key comes from a key factory built on orval's generated `get...Url`
 * helpers (lib/query-keys' apiKey). So no key is typed by hand and no read is written inline.
 */
const QUERY_KEY_HELP =
  'Query keys come from a key factory (apiKey over the generated get...Url, src/lib/query-keys.ts).';
export const apiPathArray = {
  selector: 'ArrayExpression > Literal:first-child[value=/^\\u002Fapi\\u002F/]',
  message: QUERY_KEY_HELP,
};
export const onePatternForQueries = [
  { selector: "Property[key.name='queryKey'] > ArrayExpression", message: QUERY_KEY_HELP },
  apiPathArray,
  {
    selector:
      "CallExpression[callee.name=/^use(Suspense)?(Infinite)?Query$/] > ObjectExpression > Property[key.name='queryKey']",
    message:
      "A read is one queryOptions in its feature's api.ts; spread it: useQuery({ ...thingQueries.x(), enabled }).",
  },
  {
    selector:
      "CallExpression[callee.property.name=/^(fetch|prefetch|ensure)(Infinite)?Query(Data)?$/] > ObjectExpression > Property[key.name='queryKey']",
    message: "A read is one queryOptions in its feature's api.ts; pass it: queryClient.fetchQuery(thingQueries.x()).",
  },
];
