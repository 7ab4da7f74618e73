import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { isExecutableFile, NOT_FOUND_MESSAGE, resolveServerPath, type ResolveEnv } from '../src/serverPath';

function fakeEnv(files: string[], over: Partial<ResolveEnv> = {}): ResolveEnv {
  const set = new Set(files);
  return {
    platform: 'linux',
    env: { PATH: '/usr/local/bin:/usr/bin' },
    homedir: '/home/u',
    workspaceFolders: ['/home/u/proj'],
    isExecutable: (p) => set.has(p),
    ...over,
  };
}

describe('resolveServerPath', () => {
  it('finds mcp-lsp on PATH', () => {
    assert.deepEqual(resolveServerPath('', fakeEnv(['/usr/bin/mcp-lsp'])), {
      ok: true,
      path: '/usr/bin/mcp-lsp',
      source: 'PATH',
    });
  });

  it('prefers the first PATH entry', () => {
    const r = resolveServerPath(undefined, fakeEnv(['/usr/bin/mcp-lsp', '/usr/local/bin/mcp-lsp']));
    assert.ok(r.ok && r.path === '/usr/local/bin/mcp-lsp');
  });

  it('falls back to GOBIN, then GOPATH/bin, then ~/go/bin', () => {
    let r = resolveServerPath('', fakeEnv(['/gobin/mcp-lsp'], { env: { PATH: '/usr/bin', GOBIN: '/gobin' } }));
    assert.deepEqual(r, { ok: true, path: '/gobin/mcp-lsp', source: 'GOBIN' });
    r = resolveServerPath('', fakeEnv(['/gp2/bin/mcp-lsp'], { env: { PATH: '/usr/bin', GOPATH: '/gp1:/gp2' } }));
    assert.deepEqual(r, { ok: true, path: '/gp2/bin/mcp-lsp', source: 'GOPATH' });
    r = resolveServerPath('', fakeEnv(['/home/u/go/bin/mcp-lsp'], { env: { PATH: '/usr/bin' } }));
    assert.deepEqual(r, { ok: true, path: '/home/u/go/bin/mcp-lsp', source: 'GOPATH' });
  });

  it('says how to install when nothing is found', () => {
    const r = resolveServerPath('', fakeEnv([]));
    assert.deepEqual(r, { ok: false, message: NOT_FOUND_MESSAGE });
    assert.equal(
      NOT_FOUND_MESSAGE,
      'mcp-lsp not found: install with `go install github.com/mcp-lsp/mcp-lsp/cmd/mcp-lsp@latest` or set mcpLsp.server.path',
    );
  });

  it('uses the setting: absolute, ~, ${workspaceFolder}, relative', () => {
    const env = fakeEnv(['/opt/mcp-lsp', '/home/u/bin/mcp-lsp', '/home/u/proj/bin/mcp-lsp']);
    assert.deepEqual(resolveServerPath('/opt/mcp-lsp', env), { ok: true, path: '/opt/mcp-lsp', source: 'setting' });
    assert.deepEqual(resolveServerPath(' ~/bin/mcp-lsp ', env), { ok: true, path: '/home/u/bin/mcp-lsp', source: 'setting' });
    assert.deepEqual(resolveServerPath('${workspaceFolder}/bin/mcp-lsp', env), {
      ok: true,
      path: '/home/u/proj/bin/mcp-lsp',
      source: 'setting',
    });
    assert.deepEqual(resolveServerPath('./bin/mcp-lsp', env), { ok: true, path: '/home/u/proj/bin/mcp-lsp', source: 'setting' });
  });

  it('looks a bare command name in the setting up on PATH', () => {
    const r = resolveServerPath('mcp-lsp-dev', fakeEnv(['/usr/bin/mcp-lsp-dev']));
    assert.deepEqual(r, { ok: true, path: '/usr/bin/mcp-lsp-dev', source: 'setting' });
  });

  it('reports a setting that names no executable, without falling back', () => {
    const r = resolveServerPath('/opt/nope/mcp-lsp', fakeEnv(['/usr/bin/mcp-lsp']));
    assert.equal(r.ok, false);
    assert.match(!r.ok ? r.message : '', /^mcp-lsp not found at \/opt\/nope\/mcp-lsp \(mcpLsp\.server\.path\)/);
    const rel = resolveServerPath('bin/mcp-lsp', fakeEnv([], { workspaceFolders: [] }));
    assert.ok(!rel.ok && rel.message.includes('relative'));
  });

  it('handles Windows: PATHEXT, ";" separators, either slash, case-insensitive env names', () => {
    const env = fakeEnv(['C:\\Go\\bin\\mcp-lsp.exe', 'D:\\tools\\mcp-lsp.exe', 'C:\\Users\\me\\go\\bin\\mcp-lsp.exe'], {
      platform: 'win32',
      env: { Path: 'C:\\Windows;C:\\Go\\bin', PATHEXT: '.COM;.EXE;.BAT' },
      homedir: 'C:\\Users\\me',
      workspaceFolders: ['C:\\proj'],
    });
    assert.deepEqual(resolveServerPath('', env), { ok: true, path: 'C:\\Go\\bin\\mcp-lsp.exe', source: 'PATH' });
    assert.deepEqual(resolveServerPath('D:\\tools\\mcp-lsp', env), { ok: true, path: 'D:\\tools\\mcp-lsp.exe', source: 'setting' });
    assert.deepEqual(resolveServerPath('D:/tools/mcp-lsp.exe', env), { ok: true, path: 'D:\\tools\\mcp-lsp.exe', source: 'setting' });
    const noPath = { ...env, env: { PATHEXT: '.EXE' } };
    assert.deepEqual(resolveServerPath('', noPath), { ok: true, path: 'C:\\Users\\me\\go\\bin\\mcp-lsp.exe', source: 'GOPATH' });
  });
});

describe('isExecutableFile', () => {
  it('accepts executable files only', { skip: process.platform === 'win32' }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-lsp-path-'));
    try {
      const exe = join(dir, 'exe');
      const plain = join(dir, 'plain');
      writeFileSync(exe, '#!/bin/sh\n');
      chmodSync(exe, 0o755);
      writeFileSync(plain, '');
      chmodSync(plain, 0o644);
      mkdirSync(join(dir, 'sub'));
      assert.equal(isExecutableFile(exe), true);
      assert.equal(isExecutableFile(join(dir, 'sub')), false);
      assert.equal(isExecutableFile(join(dir, 'missing')), false);
      assert.equal(isExecutableFile(plain), false); // no x bit: not even root may execute it
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
