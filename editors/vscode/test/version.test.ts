import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { bundledServerPath, resolveServerPath, type ResolveEnv } from '../src/serverPath';
import { checkVersion, parseVersionLine, versionMessage } from '../src/version';

describe('the server version against the extension version', () => {
  it('reads release and development builds of `mcp-lsp --version`', () => {
    assert.equal(parseVersionLine('mcp-lsp v0.1.0 (commit abc, go1.26.8 linux/amd64)\n'), '0.1.0');
    assert.equal(parseVersionLine('mcp-lsp v1.2.3-rc.1 (go1.26.8 linux/amd64)'), '1.2.3-rc.1');
    assert.equal(parseVersionLine('mcp-lsp devel (go1.26.8 linux/amd64)'), 'devel');
    assert.equal(parseVersionLine('gopls v0.20.0'), undefined);
  });

  it('says nothing when they agree, and names both versions when they differ', () => {
    assert.deepEqual(checkVersion('mcp-lsp v0.1.0 (go1.26.8 linux/amd64)', '0.1.0'), { kind: 'same', version: '0.1.0' });
    assert.equal(versionMessage(checkVersion('mcp-lsp v0.1.0 (x)', '0.1.0'), '/b/mcp-lsp'), undefined);
    const msg = versionMessage(checkVersion('mcp-lsp v0.2.0 (x)', '0.1.0'), '/usr/bin/mcp-lsp');
    assert.match(msg ?? '', /^mcp-lsp at \/usr\/bin\/mcp-lsp is version 0\.2\.0, but this extension is 0\.1\.0/);
  });

  it('does not warn for a development build, and asks about a program that is not mcp-lsp', () => {
    assert.equal(versionMessage(checkVersion('mcp-lsp devel (go1.26.8)', '0.1.0'), '/x'), undefined);
    assert.match(versionMessage(checkVersion('', '0.1.0'), '/usr/bin/true') ?? '', /did not report an mcp-lsp version/);
  });
});

describe('the server bundled in a platform-specific .vsix', () => {
  const env = (files: string[], platform: NodeJS.Platform = 'linux'): ResolveEnv => ({
    platform,
    env: { PATH: '/usr/bin' },
    homedir: '/home/u',
    workspaceFolders: [],
    isExecutable: (p) => files.includes(p),
  });

  it('is bin/mcp-lsp (bin\\mcp-lsp.exe on Windows) inside the extension', () => {
    assert.equal(bundledServerPath('/ext', 'linux'), '/ext/bin/mcp-lsp');
    assert.equal(bundledServerPath('C:\\ext', 'win32'), 'C:\\ext\\bin\\mcp-lsp.exe');
  });

  it('comes before PATH, and mcpLsp.server.path comes before it', () => {
    const files = ['/ext/bin/mcp-lsp', '/usr/bin/mcp-lsp', '/opt/mcp-lsp'];
    assert.deepEqual(resolveServerPath('', env(files), '/ext/bin/mcp-lsp'), { ok: true, path: '/ext/bin/mcp-lsp', source: 'bundled' });
    assert.deepEqual(resolveServerPath('/opt/mcp-lsp', env(files), '/ext/bin/mcp-lsp'), { ok: true, path: '/opt/mcp-lsp', source: 'setting' });
    // A .vsix without the binary (the generic one) falls back to PATH.
    assert.deepEqual(resolveServerPath('', env(['/usr/bin/mcp-lsp']), '/ext/bin/mcp-lsp'), { ok: true, path: '/usr/bin/mcp-lsp', source: 'PATH' });
  });
});
