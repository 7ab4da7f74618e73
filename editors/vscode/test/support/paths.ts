// Locations used by the tests. Tests are bundled into out/test/, so paths are
// found from the package root rather than from the test file.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'mcp-lsp') {
      return dir;
    }
    const up = dirname(dir);
    if (up === dir) throw new Error('package root (editors/vscode) not found');
    dir = up;
  }
}

/** editors/vscode */
export const ROOT = findRoot();
/** The Go module root. */
export const REPO = join(ROOT, '..', '..');

export function readText(rel: string, base = ROOT): string {
  return readFileSync(join(base, rel), 'utf8');
}

export function readJson<T = unknown>(rel: string, base = ROOT): T {
  return JSON.parse(readText(rel, base)) as T;
}
