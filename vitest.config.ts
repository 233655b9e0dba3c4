import { defineConfig } from 'vitest/config';
export default defineConfig({
  oxc: { decorator: { legacy: true, emitDecoratorMetadata: true } } as never,
  test: { include: ['**/*.test.ts'], exclude: ['node_modules/**', 'dist/**'] },
});
