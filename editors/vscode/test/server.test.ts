// Talks to a real mcp-lsp the way the extension does: the same arguments,
// the same document selector, the same settings answer and the same
// "show effective configuration" request. Uses $MCP_LSP_BIN, else builds
// ../../cmd/mcp-lsp with Go; skipped when neither is available.

import assert from 'node:assert/strict';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, type MessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node.js';

import { fetchEffective } from '../src/effective';
import { SELECTOR_GLOBS } from '../src/selector.generated';
import { SECTION, serverArgs, toServerSettings } from '../src/settings';
import { REPO } from './support/paths';
import { matchGlob } from './support/vscodeGlob';

const tmp = mkdtempSync(join(tmpdir(), 'mcp-lsp-vscode-'));

type Found = { bin: string } | { skip: string } | { buildError: string };

function findServer(): Found {
  if (process.env.MCP_LSP_BIN) return { bin: process.env.MCP_LSP_BIN };
  const out = join(tmp, process.platform === 'win32' ? 'mcp-lsp.exe' : 'mcp-lsp');
  try {
    execFileSync('go', ['build', '-o', out, './cmd/mcp-lsp'], { cwd: REPO, stdio: ['ignore', 'ignore', 'pipe'], timeout: 300_000 });
    return { bin: out };
  } catch (err) {
    const e = err as { code?: string; stderr?: Buffer };
    if (e.code === 'ENOENT') return { skip: 'no $MCP_LSP_BIN and no Go toolchain' };
    return { buildError: `go build ./cmd/mcp-lsp failed:\n${e.stderr?.toString() ?? String(err)}` };
  }
}

interface PublishDiagnostics {
  uri: string;
  diagnostics: { message: string; source?: string; severity?: number; code?: string | number }[];
}

const found = findServer();

if ('buildError' in found) {
  it('builds mcp-lsp', () => assert.fail(found.buildError));
}

describe('against a real mcp-lsp', { skip: 'bin' in found ? false : ('skip' in found ? found.skip : 'build failed') }, () => {
  const server = 'bin' in found ? found.bin : '';
  let proc: ChildProcess;
  let conn: MessageConnection;
  const diagnostics = new Map<string, PublishDiagnostics['diagnostics']>();
  const waiters: (() => void)[] = [];
  let stderr = '';

  const project = join(tmp, 'proj');
  const mcpJson = join(project, '.mcp.json');
  const mcpUri = pathToFileURL(mcpJson).toString();

  function waitFor<T>(what: string, check: () => T | undefined, ms = 10_000): Promise<T> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}; server stderr:\n${stderr}`)), ms);
      const poll = () => {
        const v = check();
        if (v === undefined) return waiters.push(poll);
        clearTimeout(timer);
        resolve(v);
      };
      poll();
    });
  }

  before(async () => {
    mkdirSync(project, { recursive: true });
    writeFileSync(mcpJson, '{"mcpServers": {"a": {"command": "node"}}}\n');
    // vscode-languageclient adds --stdio for TransportKind.stdio.
    proc = spawn(server, ['--stdio', ...serverArgs('verbose')], { stdio: ['pipe', 'pipe', 'pipe'] });
    proc.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    conn = createMessageConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
    conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnostics) => {
      diagnostics.set(p.uri, p.diagnostics);
      waiters.splice(0).forEach((w) => w());
    });
    conn.onRequest('workspace/configuration', (p: { items: { section?: string }[] }) => {
      return p.items.map((i) => (i.section === SECTION ? toServerSettings({ commandLookup: false }).settings : null));
    });
    conn.onRequest(() => null); // registerCapability, workDoneProgress/create, ...
    conn.onNotification(() => undefined);
    conn.listen();
    await conn.sendRequest('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(project).toString(),
      workspaceFolders: [{ uri: pathToFileURL(project).toString(), name: 'proj' }],
      capabilities: {
        workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true }, workspaceFolders: true },
        textDocument: { publishDiagnostics: { relatedInformation: true } },
      },
    });
    await conn.sendNotification('initialized', {});
  });

  after(async () => {
    // Every wait is bounded and the process is killed whatever happens:
    // in three runs on a loaded machine the hook never got past an
    // unbounded await, the server sat idle reading its stdin, and node
    // kept the test process alive on its pipes (CI hung).
    const bounded = (p: Promise<unknown>) => Promise.race([p, new Promise((r) => setTimeout(r, 2000))]);
    try {
      await bounded(conn.sendRequest('shutdown'));
      await bounded(conn.sendNotification('exit'));
    } catch {
      // the process may already be gone
    } finally {
      try {
        conn?.dispose();
      } catch {
        // disposing a connection whose process is gone may throw
      }
      proc?.kill();
      proc?.stdin?.destroy();
      proc?.stdout?.destroy();
      proc?.stderr?.destroy();
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('the opened file is one the selector picks', () => {
    assert.ok(SELECTOR_GLOBS.some((g) => matchGlob(g, mcpJson)));
  });

  it('publishes diagnostics from source mcp-lsp for a broken file', async () => {
    await conn.sendNotification('textDocument/didOpen', {
      textDocument: { uri: mcpUri, languageId: 'json', version: 1, text: '{"mcpServers": {"a": {"command": "node",,}}' },
    });
    const ds = await waitFor('diagnostics for .mcp.json', () => {
      const d = diagnostics.get(mcpUri);
      return d && d.length > 0 ? d : undefined;
    });
    assert.ok(ds.every((d) => d.source === 'mcp-lsp'), JSON.stringify(ds));
  });

  it('clears them when the file is fixed', async () => {
    await conn.sendNotification('textDocument/didChange', {
      textDocument: { uri: mcpUri, version: 2 },
      contentChanges: [{ text: '{"mcpServers": {"a": {"command": "node"}}}\n' }],
    });
    await waitFor('diagnostics to clear', () => (diagnostics.get(mcpUri)?.length === 0 ? true : undefined));
  });

  it('takes pushed settings in the shape the client sends', async () => {
    await conn.sendNotification('workspace/didChangeConfiguration', {
      settings: { [SECTION]: toServerSettings({ rules: { 'no-such-rule': 'off' } }).settings },
    });
    // No reply is expected; the server must still be alive and answering.
    const r = await fetchEffective({ serverCommands: undefined, sendRequest: (m, p) => conn.sendRequest(m, p), uri: mcpUri });
    assert.ok(r.kind === 'ok' || r.kind === 'unsupported');
  });

  it('show effective configuration is answered or cleanly unsupported', async () => {
    const r = await fetchEffective({ serverCommands: undefined, sendRequest: (m, p) => conn.sendRequest(m, p), uri: mcpUri });
    assert.ok(r.kind === 'ok' || r.kind === 'unsupported', JSON.stringify(r));
  });
});
