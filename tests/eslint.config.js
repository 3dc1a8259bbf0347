// The black-box tests are linted with the web app's ESLint (web/node_modules); scripts/lint runs both.
export { testsConfig as default } from '../web/eslint.config.js';
