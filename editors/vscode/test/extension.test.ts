// Loads the real bundle (dist/extension.js) against a minimal fake of the
// VS Code API, to check the glue that the pure-module tests cannot: that the
// bundle loads, registers the commands package.json declares, and reports a
// missing server the way the README says.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { ROOT, readJson } from './support/paths';

type Fn = (...args: unknown[]) => unknown;

/** A value that can be called, constructed and indexed, for API members the glue never really uses. */
function stub(): unknown {
  const target = function () {} as unknown as object;
  return new Proxy(target, {
    get: (_t, k) => (k === 'then' ? undefined : k === Symbol.toPrimitive ? () => '' : stub()),
    apply: () => stub(),
    construct: () => stub() as object,
  });
}

function fakeVSCode(settings: Record<string, unknown>) {
  const messages: { level: string; text: string }[] = [];
  const commands = new Map<string, Fn>();
  const disposable = { dispose: () => undefined };
  const say = (level: string) => (text: string) => {
    messages.push({ level, text });
    return Promise.resolve(undefined);
  };
  const api: Record<string, unknown> = {
    window: {
      createOutputChannel: () => ({ appendLine: () => undefined, append: () => undefined, show: () => undefined, dispose: () => undefined }),
      showErrorMessage: say('error'),
      showWarningMessage: say('warning'),
      showInformationMessage: say('info'),
      activeTextEditor: undefined,
    },
    workspace: {
      workspaceFolders: undefined,
      getConfiguration: () => ({ get: (k: string) => settings[k] }),
      registerTextDocumentContentProvider: () => disposable,
      onDidChangeConfiguration: () => disposable,
      onDidGrantWorkspaceTrust: () => disposable,
    },
    commands: {
      registerCommand: (id: string, fn: Fn) => {
        commands.set(id, fn);
        return disposable;
      },
      executeCommand: () => Promise.resolve(undefined),
    },
    EventEmitter: class {
      event = () => disposable;
      fire(): void {}
      dispose(): void {}
    },
  };
  const vscode = new Proxy(api, { get: (t, k: string) => (k in t ? t[k] : stub()) });
  return { vscode, messages, commands };
}

interface ExtensionModule {
  activate(ctx: { subscriptions: unknown[] }): Promise<void>;
  deactivate(): Promise<void> | undefined;
}

/** Requires the bundle with `vscode` resolved to fake. */
function loadBundle(fake: unknown): ExtensionModule {
  const bundle = join(ROOT, 'dist', 'extension.js');
  assert.ok(existsSync(bundle), 'dist/extension.js missing: run `npm run build`');
  const M = Module as unknown as { _load: (req: string, parent: unknown, isMain: boolean) => unknown };
  const load = M._load;
  M._load = (req, parent, isMain) => (req === 'vscode' ? fake : load(req, parent, isMain));
  try {
    const require = createRequire(import.meta.url);
    delete require.cache[bundle];
    return require(bundle) as ExtensionModule;
  } finally {
    M._load = load;
  }
}

describe('dist/extension.js in a fake VS Code', () => {
  it('activates, registers the declared commands, and reports a missing server', async () => {
    const { vscode, messages, commands } = fakeVSCode({ 'server.path': '/nonexistent/dir/mcp-lsp' });
    const ext = loadBundle(vscode);
    const ctx = { subscriptions: [] as unknown[] };
    await ext.activate(ctx);

    const declared = readJson<{ contributes: { commands: { command: string }[] } }>('package.json').contributes.commands.map(
      (c) => c.command,
    );
    assert.deepEqual([...commands.keys()].sort(), declared.sort());

    assert.equal(messages.length, 1, JSON.stringify(messages));
    assert.equal(messages[0]?.level, 'error');
    assert.match(messages[0]?.text ?? '', /^mcp-lsp not found at \/nonexistent\/dir\/mcp-lsp \(mcpLsp\.server\.path\)/);

    // With no server, the command explains instead of failing.
    await commands.get('mcpLsp.showEffective')?.();
    assert.equal(messages[1]?.level, 'warning');
    assert.match(messages[1]?.text ?? '', /not running/);
    await ext.deactivate();
  });

  it('without the setting, names the install command', async () => {
    const { vscode, messages } = fakeVSCode({});
    const path = process.env.PATH;
    const env = { GOBIN: process.env.GOBIN, GOPATH: process.env.GOPATH };
    process.env.PATH = '/nonexistent';
    process.env.GOBIN = '/nonexistent';
    process.env.GOPATH = '/nonexistent';
    try {
      const ext = loadBundle(vscode);
      await ext.activate({ subscriptions: [] });
      await ext.deactivate();
    } finally {
      process.env.PATH = path;
      for (const [k, v] of Object.entries(env)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
    assert.deepEqual(messages, [
      {
        level: 'error',
        text: 'mcp-lsp not found: install with `go install github.com/mcp-lsp/mcp-lsp/cmd/mcp-lsp@latest` or set mcpLsp.server.path',
      },
    ]);
  });
});
