export * from './accounts/accounts';
export * from './health/health';
export * from './mentors/mentors';
export * from './passwords/passwords';
