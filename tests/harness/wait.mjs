// Waiting for a condition instead of sleeping: polls `check` until it returns a truthy value.
//
//   const row = await until('the hold to expire', async () => (await db.query(...)).rows[0], 20_000);

/** Resolves to the first truthy value of `check()`; throws naming `what` after `timeoutMs`. */
export async function until(what, check, timeoutMs = 20_000, intervalMs = 150) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
      last = value;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) {
      const detail = last instanceof Error ? `: ${last.message}` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${detail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
