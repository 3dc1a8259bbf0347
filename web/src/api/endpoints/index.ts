export * from './accounts/accounts';
export * from './favorites/favorites';
export * from './health/health';
export * from './mentors/mentors';
export * from './passwords/passwords';
export * from './profiles/profiles';
export * from './services/services';
export * from './support/support';
