#!/usr/bin/env node
// Packages platform-specific .vsix files with the mcp-lsp binary inside
// (`npm run package:platform -- linux-x64 darwin-arm64 …`; no target: all six).
//
// Each .vsix holds bin/mcp-lsp (bin/mcp-lsp.exe on Windows), which the
// extension runs when mcpLsp.server.path is empty, so it works with no Go and
// nothing on PATH. The binaries are scripts/release.sh's, stamped with the
// extension's version (v<package.json version>): taken from --dist DIR when
// given (a release build's dist/), else built into a temporary directory.
// Output: mcp-lsp-<target>-<version>.vsix in this directory.

import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const repo = join(root, '..', '..');

/** vsce's target names and the Go platform of each. @type {Record<string, string>} */
export const TARGETS = {
  'linux-x64': 'linux/amd64',
  'linux-arm64': 'linux/arm64',
  'darwin-x64': 'darwin/amd64',
  'darwin-arm64': 'darwin/arm64',
  'win32-x64': 'windows/amd64',
  'win32-arm64': 'windows/arm64',
};

const args = process.argv.slice(2);
let dist;
const di = args.indexOf('--dist');
if (di >= 0) {
  dist = args[di + 1];
  args.splice(di, 2);
}
const targets = args.length > 0 ? args : Object.keys(TARGETS);
for (const t of targets) {
  if (!(t in TARGETS)) {
    console.error(`package-platform: unknown target ${t} (one of ${Object.keys(TARGETS).join(', ')})`);
    process.exit(2);
  }
}

/** @returns {unknown} */
function readManifest() {
  return JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
}
const { name, version } = /** @type {{ name: string, version: string }} */ (readManifest());
const tmp = dist === undefined ? mkdtempSync(join(tmpdir(), 'mcp-lsp-vsix-')) : undefined;
if (tmp !== undefined) {
  execFileSync('bash', [join(repo, 'scripts', 'release.sh'), `v${version}`], {
    cwd: repo,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, OUT: tmp, TARGETS: targets.map((t) => TARGETS[t]).join(' ') },
  });
  dist = tmp;
}
const from = String(dist);

const bin = join(root, 'bin');
try {
  for (const t of targets) {
    const [goos = '', goarch = ''] = String(TARGETS[t]).split('/');
    const exe = goos === 'windows' ? '.exe' : '';
    const src = join(from, `mcp-lsp-${goos}-${goarch}${exe}`);
    if (!existsSync(src)) throw new Error(`${src} missing: build it with scripts/release.sh`);
    rmSync(bin, { recursive: true, force: true });
    mkdirSync(bin);
    copyFileSync(src, join(bin, `mcp-lsp${exe}`));
    chmodSync(join(bin, `mcp-lsp${exe}`), 0o755);
    const out = `${name}-${t}-${version}.vsix`;
    execFileSync(join(root, 'node_modules', '.bin', 'vsce'), ['package', '--no-dependencies', '--target', t, '-o', out], {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
  }
} finally {
  rmSync(bin, { recursive: true, force: true });
  if (tmp !== undefined) rmSync(tmp, { recursive: true, force: true });
}
