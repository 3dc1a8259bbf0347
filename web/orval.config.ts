import { defineConfig } from 'orval';

// Generates web/src/api/ from the OpenAPI document the Rust api prints (`api openapi`).
// The output is committed and never edited by hand: `npm run generate` rewrites it and
// `npm run check:generated` fails when it differs from what is committed.
export default defineConfig({
  api: {
    input: {
      target: '../openapi.yaml',
    },
    output: {
      mode: 'tags-split',
      target: 'src/api/endpoints',
      schemas: 'src/api/model',
      client: 'fetch',
      httpClient: 'fetch',
      clean: true,
      override: {
        mutator: {
          path: 'src/lib/api-fetch.ts',
          name: 'apiFetch',
        },
        fetch: {
          includeHttpResponseReturnType: false,
        },
      },
    },
  },
});
