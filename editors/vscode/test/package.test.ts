// The bundle and the .vsix that `npm test` built before running the tests
// (npm run build && npm run package).

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { inflateRawSync } from 'node:zlib';

import { ROOT, readJson } from './support/paths';

interface ZipEntry {
  name: string;
  data: () => Buffer;
}

/** Lists a zip file from its central directory. */
function readZip(buf: Buffer): ZipEntry[] {
  let eocd = buf.length - 22;
  while (eocd >= 0 && buf.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  assert.ok(eocd >= 0, 'not a zip file');
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    assert.equal(buf.readUInt32LE(p), 0x02014b50, 'bad central directory');
    const method = buf.readUInt16LE(p + 10);
    const size = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    entries.push({
      name,
      data: () => {
        const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
        const raw = buf.subarray(start, start + size);
        return method === 0 ? Buffer.from(raw) : inflateRawSync(raw);
      },
    });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

const pkg = readJson<{ name: string; version: string }>('package.json');
const vsixPath = join(ROOT, `${pkg.name}-${pkg.version}.vsix`);
const bundlePath = join(ROOT, 'dist', 'extension.js');

describe('bundle', () => {
  it('dist/extension.js requires only vscode and Node built-ins', () => {
    assert.ok(existsSync(bundlePath), 'dist/extension.js missing: run `npm run build`');
    const src = readFileSync(bundlePath, 'utf8');
    const required = new Set([...src.matchAll(/require\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1] as string));
    assert.ok(required.has('vscode'), 'the bundle does not use vscode');
    const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
    for (const r of required) assert.ok(r === 'vscode' || builtins.has(r), `the bundle requires ${r}: bundle it or mark it external`);
  });
});

describe('.vsix', () => {
  it('holds the bundle, the manifest, README and LICENSE, and no sources or node_modules', () => {
    assert.ok(existsSync(vsixPath), `${vsixPath} missing: run \`npm run package\``);
    const entries = readZip(readFileSync(vsixPath));
    const names = entries.map((e) => e.name);
    for (const n of ['extension.vsixmanifest', 'extension/package.json', 'extension/dist/extension.js', 'extension/readme.md', 'extension/LICENSE.txt']) {
      assert.ok(names.includes(n), `${n} not in the .vsix (has: ${names.join(', ')})`);
    }
    for (const n of names) {
      assert.ok(!/^extension\/(src|test|out|scripts|node_modules)\//.test(n), `${n} should not be packaged`);
      assert.ok(!/\.(ts|map|mjs)$/.test(n), `${n} should not be packaged`);
    }
    const manifest = JSON.parse(
      entries.find((e) => e.name === 'extension/package.json')?.data().toString('utf8') ?? '{}',
    ) as { main?: string; contributes?: Record<string, unknown> };
    assert.equal(manifest.main, './dist/extension.js');
    assert.equal(manifest.contributes?.jsonValidation, undefined);
  });
});
