// Playwright fixtures: `import { test, expect } from '../harness/fixtures.mjs'`.
//
//   stack    (worker-scoped) one running product per Playwright worker: fresh database, api, worker;
//            see stack.mjs (baseUrl, waitForMail, mails, ...)
//   baseURL  the stack's address, so page.goto('/auth') works
//
// Helpers for tests: see accounts.mjs (createVerifiedUser, uniqueEmail, ...) and mail.mjs.
import { test as base, expect } from '@playwright/test';
import { startStack } from './stack.mjs';

export const test = base.extend({
  stack: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const stack = await startStack();
      try {
        await use(stack);
      } finally {
        await stack.stop();
      }
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  baseURL: async ({ stack }, use) => {
    await use(stack.baseUrl);
  },
});

export { expect };
export * from './accounts.mjs';
export * from './mail.mjs';
export { client, show } from './client.mjs';
export { approveMentor } from './vetting.mjs';
export { launchOptions, mediaArgs } from './chromium.mjs';
