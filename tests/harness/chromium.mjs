// Launch options for Debian's Chromium (no Playwright browser download). Tests that need more
// flags (video calls) extend these:
//   test.use({ launchOptions: { ...launchOptions, args: [...launchOptions.args, ...mediaArgs] } });
export const launchOptions = {
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

// Fake camera and microphone, auto-accepted permission prompts, loopback ICE candidates.
export const mediaArgs = [
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
  '--allow-loopback-in-peer-connection',
];
