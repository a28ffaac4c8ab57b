import { inject } from 'vitest';

// Runs before each test file imports the app's modules, which read DATABASE_URL once.
process.env.DATABASE_URL = inject('databaseUrl');
