import { afterEach, describe, expect, it, vi } from 'vitest';
import { PUSH_PROMPT_KEY, deviceName, effectivePushState, pushOffered, shouldOfferPush } from './push';

describe('deviceName', () => {
  it('names the browser and the system from the user agent', () => {
    expect(
      deviceName(
        'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36',
      ),
    ).toBe('Chrome on Android');
    expect(deviceName('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5; rv:131.0) Gecko/20100101 Firefox/131.0')).toBe(
      'Firefox on macOS',
    );
    expect(
      deviceName(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      ),
    ).toBe('Safari on iOS');
    expect(deviceName('Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 Chrome/131.0 Safari/537.36 Edg/131.0')).toBe(
      'Edge on Windows',
    );
    expect(deviceName(null)).toBe('Unknown browser');
  });
});

describe('the one-time offer', () => {
  afterEach(() => {
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('is made once per browser, only while permission was never asked', () => {
    vi.stubGlobal('PushManager', class {});
    vi.stubGlobal('Notification', { permission: 'default' });
    Object.defineProperty(navigator, 'serviceWorker', { value: {}, configurable: true });
    expect(shouldOfferPush()).toBe(true);
    pushOffered();
    expect(localStorage.getItem(PUSH_PROMPT_KEY)).not.toBeNull();
    expect(shouldOfferPush()).toBe(false);
    localStorage.clear();
    vi.stubGlobal('Notification', { permission: 'denied' });
    expect(shouldOfferPush()).toBe(false);
  });
});

describe('effectivePushState', () => {
  it('is off for a browser subscription the api no longer has (its session signed out)', () => {
    const browser = { state: 'on' as const, endpoint: 'https://push.example/a' };
    expect(effectivePushState(browser, [{ endpoint: 'https://push.example/a' }])).toBe('on');
    expect(effectivePushState(browser, [{ endpoint: 'https://push.example/b' }])).toBe('off');
    expect(effectivePushState(browser, undefined)).toBe('on');
    expect(effectivePushState({ state: 'denied', endpoint: null }, [])).toBe('denied');
    expect(effectivePushState(undefined, [])).toBeUndefined();
  });
});
