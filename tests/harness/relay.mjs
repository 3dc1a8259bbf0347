// Calls through TURN only, in Chromium: every RTCPeerConnection a page makes uses
// `iceTransportPolicy: 'relay'` (only relayed candidates are gathered, so media can flow only through
// the TURN server the page was given), and getStats tells which candidates a call selected.
//
//   await context.addInitScript(forceRelay);   // before the page loads (or page.addInitScript)
//   ... the call connects ...
//   await expectRelayed(page);                  // a selected pair whose local candidate is `relay`
//   await relayedPairs(page)                    // [{ state, local, remote, localTypes, ... }]
//
// With no TURN server in the page's ICE servers a relay-only call cannot connect at all.
import { expect } from '@playwright/test';

/**
 * Runs in the page before any of its scripts: RTCPeerConnection becomes a subclass that forces
 * `iceTransportPolicy: 'relay'` (in the constructor and in setConfiguration) and remembers every
 * connection in `window.__relayPeers`.
 */
export function forceRelay() {
  const Native = window.RTCPeerConnection;
  if (!Native || Native.__forcesRelay) return;
  const peers = [];
  class RelayOnlyPeerConnection extends Native {
    constructor(config, ...rest) {
      super({ ...(config ?? {}), iceTransportPolicy: 'relay' }, ...rest);
      peers.push(this);
    }

    setConfiguration(config) {
      return super.setConfiguration({ ...(config ?? {}), iceTransportPolicy: 'relay' });
    }
  }
  Object.defineProperty(RelayOnlyPeerConnection, '__forcesRelay', { value: true });
  Object.defineProperty(RelayOnlyPeerConnection, 'name', { value: 'RTCPeerConnection' });
  window.RTCPeerConnection = RelayOnlyPeerConnection;
  if ('webkitRTCPeerConnection' in window) window.webkitRTCPeerConnection = RelayOnlyPeerConnection;
  Object.defineProperty(window, '__relayPeers', { value: peers });
}

/**
 * The selected candidate pair of every transport of the page's open peer connections:
 * { connection, iceTransportPolicy, state, local, remote (candidate types), localProtocol,
 *   relayProtocol, bytesSent, bytesReceived, localTypes (the types of every local candidate) }.
 */
export function relayedPairs(page) {
  return page.evaluate(async () => {
    const peers = window.__relayPeers;
    if (!peers) throw new Error('forceRelay is not installed in this page (context.addInitScript(forceRelay))');
    const out = [];
    for (const [connection, pc] of peers.entries()) {
      if (pc.connectionState === 'closed') continue;
      const reports = new Map();
      (await pc.getStats()).forEach((r) => reports.set(r.id, r));
      const all = [...reports.values()];
      const localTypes = all.filter((r) => r.type === 'local-candidate').map((r) => r.candidateType);
      for (const transport of all.filter((r) => r.type === 'transport' && r.selectedCandidatePairId)) {
        const pair = reports.get(transport.selectedCandidatePairId);
        const local = reports.get(pair?.localCandidateId);
        const remote = reports.get(pair?.remoteCandidateId);
        out.push({
          connection,
          iceTransportPolicy: pc.getConfiguration().iceTransportPolicy,
          connectionState: pc.connectionState,
          state: pair?.state,
          local: local?.candidateType,
          remote: remote?.candidateType,
          localProtocol: local?.protocol,
          relayProtocol: local?.relayProtocol,
          bytesSent: pair?.bytesSent ?? 0,
          bytesReceived: pair?.bytesReceived ?? 0,
          localTypes,
        });
      }
    }
    return out;
  });
}

/**
 * Waits until the page has at least `min` connected peer connections whose selected candidate pair
 * has a `relay` local candidate and carries bytes both ways, and no connection gathered any other
 * kind of local candidate. Resolves to the pairs.
 */
export async function expectRelayed(page, { min = 1, timeout = 30_000 } = {}) {
  let pairs = [];
  await expect
    .poll(
      async () => {
        pairs = await relayedPairs(page);
        const relayed = pairs.filter(
          (p) => p.state === 'succeeded' && p.local === 'relay' && p.bytesSent > 0 && p.bytesReceived > 0,
        );
        return relayed.length >= min && pairs.every((p) => p.iceTransportPolicy === 'relay');
      },
      { timeout, message: `a selected candidate pair with a relay local candidate (${JSON.stringify(pairs)})` },
    )
    .toBe(true);
  for (const pair of pairs) expect(new Set(pair.localTypes), JSON.stringify(pair)).toEqual(new Set(['relay']));
  return pairs;
}
