#!/usr/bin/env node
// Bundles the extension into dist/extension.js (`npm run build`), or the unit
// tests into out/test/*.test.mjs (`npm run build-tests`). Type checking is
// `npm run typecheck`; esbuild only strips types.

import * as esbuild from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tests = process.argv.includes('--tests');
const e2e = process.argv.includes('--e2e');

if (e2e) {
  // The real VS Code test (test/e2e/*.e2e.ts -> out/e2e/*.test.mjs).
  rmSync(join(root, 'out', 'e2e'), { recursive: true, force: true });
  await esbuild.build({
    entryPoints: readdirSync(join(root, 'test', 'e2e'))
      .filter((f) => f.endsWith('.e2e.ts'))
      .map((f) => join(root, 'test', 'e2e', f)),
    outdir: join(root, 'out', 'e2e'),
    outExtension: { '.js': '.test.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'inline',
    logLevel: 'warning',
  });
} else if (tests) {
  rmSync(join(root, 'out'), { recursive: true, force: true });
  const entryPoints = readdirSync(join(root, 'test'))
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => join(root, 'test', f));
  await esbuild.build({
    entryPoints,
    outdir: join(root, 'out', 'test'),
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external', // node_modules stay imports; src/ and scripts/ are bundled
    sourcemap: 'inline',
    logLevel: 'warning',
  });
} else {
  await esbuild.build({
    entryPoints: [join(root, 'src', 'extension.ts')],
    outfile: join(root, 'dist', 'extension.js'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node18', // VS Code 1.82's Electron
    external: ['vscode'],
    minify: true,
    sourcemap: false,
    logLevel: 'warning',
  });
}
