// The VS Code side: starts mcp-lsp with vscode-languageclient and wires the
// settings and commands. Everything that can be decided without VS Code lives
// in the pure modules (selector, settings, serverPath, effective), which the
// unit tests cover.

import { execFile } from 'node:child_process';

import * as vscode from 'vscode';
import {
  DidChangeConfigurationNotification,
  LanguageClient,
  type LanguageClientOptions,
  type ServerOptions,
  TransportKind,
} from 'vscode-languageclient/node';

import { fetchEffective, renderEffective, UNSUPPORTED_MESSAGE } from './effective';
import { documentSelector } from './selector';
import { bundledServerPath, processEnv, resolveServerPath } from './serverPath';
import { SECTION, serverArgs, toServerSettings, toTrace } from './settings';
import { checkVersion, versionMessage } from './version';

const CLIENT_ID = 'mcpLsp'; // vscode-languageclient reads mcpLsp.trace.server by this id
const CLIENT_NAME = 'MCP Language Server (mcp-lsp)';
const EFFECTIVE_SCHEME = 'mcp-lsp-effective';

let client: LanguageClient | undefined;
/**
 * The client that may be sent settings: unset as soon as a restart is
 * decided, before the old client stops. vscode-languageclient reacts to the
 * same configuration event that restarts the server; sending it the change
 * then fails on a stopping connection and pops "Sending notification
 * workspace/didChangeConfiguration failed". The new client pulls the
 * settings itself when it starts.
 */
let live: LanguageClient | undefined;
let output: vscode.OutputChannel;
let starting: Promise<void> = Promise.resolve();
let extensionPath = '';
let extensionVersion = '';

/** Serves the read-only documents that show the effective configuration. */
class EffectiveDocuments implements vscode.TextDocumentContentProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  private readonly texts = new Map<string, string>();
  readonly onDidChange = this.changed.event;

  set(uri: vscode.Uri, text: string): void {
    this.texts.set(uri.toString(), text);
    this.changed.fire(uri);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  dispose(): void {
    this.changed.dispose();
  }
}

function logProblems(problems: readonly string[]): void {
  for (const p of problems) output.appendLine(`[settings] ${p}`);
}

/**
 * Opens the Settings editor on one setting. In a remote window (code-server,
 * SSH, containers) a machine-scoped setting such as mcpLsp.server.path is
 * shown only in the Remote tab: the plain Settings editor opened on the User
 * tab and found nothing. Both commands take the query as an options object
 * (openRemoteSettings drops a bare string).
 */
export function openSetting(id: string): Thenable<unknown> {
  const command = vscode.env.remoteName ? 'workbench.action.openRemoteSettings' : 'workbench.action.openSettings';
  return vscode.commands.executeCommand(command, { query: id });
}

/** Runs `<server> --version` and tells the user when it is not the extension's version. */
function checkServerVersion(serverPath: string): Promise<void> {
  return new Promise((resolve) => {
    execFile(serverPath, ['--version'], { timeout: 10000, windowsHide: true }, (err, stdout) => {
      const check = checkVersion(err ? '' : stdout, extensionVersion);
      output.appendLine(
        check.kind === 'same'
          ? `mcp-lsp ${check.version}, the extension's version`
          : check.kind === 'devel'
            ? `${check.line}: a development build; the extension is ${extensionVersion}`
            : `${serverPath} --version: ${err ? err.message : stdout.trim()}`,
      );
      const msg = versionMessage(check, serverPath);
      if (msg !== undefined) {
        output.appendLine(msg);
        void vscode.window.showWarningMessage(msg, 'Open Settings').then((choice) => {
          if (choice === 'Open Settings') void openSetting(`${SECTION}.server.path`);
        });
      }
      resolve();
    });
  });
}

/** The raw "mcpLsp" section normalised for the server; dropped values are logged. */
function normalise(raw: unknown): unknown {
  const { settings, problems } = toServerSettings(raw);
  logProblems(problems);
  return settings;
}

async function startClient(): Promise<void> {
  const config = vscode.workspace.getConfiguration(SECTION);
  const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  const resolved = resolveServerPath(
    config.get<string>('server.path'),
    processEnv(folders),
    extensionPath === '' ? undefined : bundledServerPath(extensionPath, process.platform),
  );
  if (!resolved.ok) {
    output.appendLine(resolved.message);
    void vscode.window.showErrorMessage(resolved.message, 'Open Settings').then((choice) => {
      if (choice === 'Open Settings') void openSetting(`${SECTION}.server.path`);
    });
    return;
  }
  output.appendLine(`starting ${resolved.path} (found via ${resolved.source})`);
  await checkServerVersion(resolved.path);

  const serverOptions: ServerOptions = {
    command: resolved.path,
    args: serverArgs(toTrace(config.get('trace.server'))),
    transport: TransportKind.stdio,
  };

  // Assigned below; the middleware only runs once the client exists.
  // eslint-disable-next-line prefer-const
  let c: LanguageClient;
  const clientOptions: LanguageClientOptions = {
    documentSelector: documentSelector(),
    outputChannel: output,
    synchronize: { configurationSection: SECTION },
    middleware: {
      workspace: {
        // The server pulls settings with workspace/configuration: answer the
        // "mcpLsp" section with the normalised settings, nothing client-only.
        configuration: async (params, token, next) => {
          const result = await next(params, token);
          if (!Array.isArray(result)) return result;
          return result.map((value: unknown, i) => (params.items[i]?.section === SECTION ? normalise(value) : value));
        },
        // Pushed changes carry the same normalised settings; a client that
        // is being replaced is sent nothing (see `live`).
        didChangeConfiguration: async (sections, next) => {
          if (c !== live || !c.isRunning()) return;
          if (!sections?.includes(SECTION)) return next(sections);
          try {
            await c.sendNotification(DidChangeConfigurationNotification.type, {
              settings: { [SECTION]: normalise(vscode.workspace.getConfiguration().get(SECTION)) },
            });
          } catch (err) {
            output.appendLine(`sending settings: ${err instanceof Error ? err.message : String(err)}`);
          }
        },
      },
    },
  };

  c = new LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions, clientOptions);
  client = c;
  try {
    await c.start();
    if (client === c) live = c;
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    output.appendLine(`mcp-lsp failed to start: ${msg}`);
    void vscode.window.showErrorMessage(`mcp-lsp (${resolved.path}) failed to start: ${msg}`);
  }
}

async function stopClient(): Promise<void> {
  const c = client;
  client = undefined;
  live = undefined;
  if (c) {
    try {
      await c.dispose(2000);
    } catch (err) {
      output.appendLine(`stopping mcp-lsp: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}

/** Restarts the server; concurrent restarts run one after the other. */
function restart(): Promise<void> {
  live = undefined; // at once: the event that caused the restart is still being delivered
  starting = starting.then(async () => {
    try {
      await stopClient();
      await startClient();
    } catch (err) {
      // Never leave `starting` rejected: later restarts chain on it.
      output.appendLine(`restarting mcp-lsp: ${err instanceof Error ? err.message : String(err)}`);
    }
  });
  return starting;
}

async function showEffective(docs: EffectiveDocuments): Promise<void> {
  await starting;
  const c = client;
  if (!c || !c.isRunning()) {
    void vscode.window.showWarningMessage('mcp-lsp is not running: see the "MCP Language Server (mcp-lsp)" output.');
    return;
  }
  try {
    const result = await fetchEffective({
      serverCommands: c.initializeResult?.capabilities.executeCommandProvider?.commands,
      sendRequest: (method, params) => c.sendRequest(method, params),
      uri: vscode.window.activeTextEditor?.document.uri.toString(),
    });
    if (result.kind === 'unsupported') {
      void vscode.window.showInformationMessage(UNSUPPORTED_MESSAGE);
      return;
    }
    const { ext, text } = renderEffective(result.value);
    const uri = vscode.Uri.from({ scheme: EFFECTIVE_SCHEME, path: `/MCP effective configuration.${ext}` });
    docs.set(uri, text);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { preview: false });
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    void vscode.window.showErrorMessage(`MCP: Show effective configuration failed: ${msg}`);
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  extensionPath = context.extensionPath ?? '';
  const version = (context.extension?.packageJSON as { version?: unknown } | undefined)?.version;
  extensionVersion = typeof version === 'string' ? version : '';
  output = vscode.window.createOutputChannel(CLIENT_NAME);
  const docs = new EffectiveDocuments();
  context.subscriptions.push(
    output,
    docs,
    vscode.workspace.registerTextDocumentContentProvider(EFFECTIVE_SCHEME, docs),
    vscode.commands.registerCommand('mcpLsp.showEffective', () => showEffective(docs)),
    vscode.commands.registerCommand('mcpLsp.restartServer', () => restart()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      // trace.server itself is handled by vscode-languageclient; only the
      // log level passed at start needs a restart.
      if (e.affectsConfiguration(`${SECTION}.server.path`) || e.affectsConfiguration(`${SECTION}.trace.server`)) {
        void restart();
      }
    }),
    // Trusting the workspace makes its mcpLsp.server.path count.
    vscode.workspace.onDidGrantWorkspaceTrust(() => void restart()),
    { dispose: () => void stopClient() },
  );
  await restart();
}

export function deactivate(): Thenable<void> | undefined {
  return stopClient();
}
