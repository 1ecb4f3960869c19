import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Worker pools and OCR engines are heavy; two cores are the norm here.
    maxWorkers: 2,
  },
});
