// Finding the mcp-lsp executable. Pure: no vscode import; the file system and
// the environment are passed in, so tests can fake Windows on Linux.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const SERVER_NAME = 'mcp-lsp';
export const INSTALL_COMMAND = 'go install github.com/mcp-lsp/mcp-lsp/cmd/mcp-lsp@latest';
export const NOT_FOUND_MESSAGE = `mcp-lsp not found: install with \`${INSTALL_COMMAND}\` or set mcpLsp.server.path`;

export interface ResolveEnv {
  platform: NodeJS.Platform;
  env: Readonly<Record<string, string | undefined>>;
  homedir: string;
  /** File system paths of the workspace folders, first one first. */
  workspaceFolders: readonly string[];
  /** Whether p is a regular file this process may execute. */
  isExecutable(p: string): boolean;
}

export type Resolution =
  | { ok: true; path: string; source: 'setting' | 'bundled' | 'PATH' | 'GOBIN' | 'GOPATH' }
  | { ok: false; message: string };

function pathApi(platform: NodeJS.Platform): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}

/** Looks an environment variable up, without case on Windows. */
function getEnv(e: ResolveEnv, name: string): string | undefined {
  if (e.platform !== 'win32') return e.env[name];
  const key = Object.keys(e.env).find((k) => k.toUpperCase() === name.toUpperCase());
  return key === undefined ? undefined : e.env[key];
}

/** The file names to try for a command: on Windows, with each PATHEXT extension. */
function candidates(name: string, e: ResolveEnv): string[] {
  if (e.platform !== 'win32') return [name];
  const exts = (getEnv(e, 'PATHEXT') ?? '.COM;.EXE;.BAT;.CMD')
    .split(';')
    .filter((x) => x !== '')
    .map((x) => x.toLowerCase());
  if (exts.some((x) => name.toLowerCase().endsWith(x))) return [name];
  return exts.map((x) => name + x);
}

function findIn(dirs: readonly string[], name: string, e: ResolveEnv): string | undefined {
  const p = pathApi(e.platform);
  for (const dir of dirs) {
    if (dir === '') continue;
    for (const c of candidates(name, e)) {
      const full = p.join(dir.replace(/^"(.*)"$/, '$1'), c);
      if (e.isExecutable(full)) return full;
    }
  }
  return undefined;
}

/** Expands ~, ${userHome}, ${workspaceFolder} and ${env:NAME}. */
export function expandSetting(value: string, e: ResolveEnv): string {
  let v = value.trim();
  const ws = e.workspaceFolders[0] ?? '';
  v = v.replace(/\$\{workspaceFolder\}/g, ws);
  v = v.replace(/\$\{userHome\}/g, e.homedir);
  v = v.replace(/\$\{env:([^}]+)\}/g, (_, name: string) => getEnv(e, name) ?? '');
  if (v === '~' || v.startsWith('~/') || (e.platform === 'win32' && v.startsWith('~\\'))) {
    v = e.homedir + v.slice(1);
  }
  return v;
}

/**
 * Resolves the server executable from the mcpLsp.server.path setting.
 *
 * Set: a path (absolute, or relative to the first workspace folder), or a
 * bare command name looked up like an empty setting. Empty: the binary
 * packaged in a platform-specific .vsix (`bundled`, the extension's
 * bin/mcp-lsp, which matches the extension's version), then "mcp-lsp" on
 * PATH, then in $GOBIN, then in each $GOPATH/bin (default ~/go/bin), where
 * `go install` puts it: VS Code started from a desktop launcher often has a
 * PATH without them.
 */
export function resolveServerPath(setting: string | undefined, e: ResolveEnv, bundled?: string): Resolution {
  const p = pathApi(e.platform);
  const raw = (setting ?? '').trim();
  const pathDirs = (getEnv(e, 'PATH') ?? '').split(e.platform === 'win32' ? ';' : ':');

  if (raw !== '') {
    const v = expandSetting(raw, e);
    const hasSep = v.includes('/') || (e.platform === 'win32' && v.includes('\\'));
    if (hasSep || p.isAbsolute(v)) {
      const base = e.workspaceFolders[0];
      if (!p.isAbsolute(v) && base === undefined) {
        return {
          ok: false,
          message: `mcp-lsp not found: mcpLsp.server.path "${raw}" is relative and no folder is open`,
        };
      }
      const full = p.isAbsolute(v) ? p.normalize(v) : p.resolve(base ?? '', v);
      const found = findIn([p.dirname(full)], p.basename(full), e);
      if (found !== undefined) return { ok: true, path: found, source: 'setting' };
      return {
        ok: false,
        message: `mcp-lsp not found at ${full} (mcpLsp.server.path): fix the setting, or clear it and install with \`${INSTALL_COMMAND}\``,
      };
    }
    const found = findIn(pathDirs, v, e);
    if (found !== undefined) return { ok: true, path: found, source: 'setting' };
    return {
      ok: false,
      message: `mcp-lsp not found: "${v}" (mcpLsp.server.path) is not on PATH; set an absolute path`,
    };
  }

  if (bundled !== undefined && e.isExecutable(bundled)) return { ok: true, path: bundled, source: 'bundled' };

  const onPath = findIn(pathDirs, SERVER_NAME, e);
  if (onPath !== undefined) return { ok: true, path: onPath, source: 'PATH' };

  const gobin = getEnv(e, 'GOBIN');
  if (gobin) {
    const found = findIn([gobin], SERVER_NAME, e);
    if (found !== undefined) return { ok: true, path: found, source: 'GOBIN' };
  }
  const gopath = getEnv(e, 'GOPATH');
  const roots = gopath ? gopath.split(e.platform === 'win32' ? ';' : ':') : [p.join(e.homedir, 'go')];
  const found = findIn(
    roots.filter((r) => r !== '').map((r) => p.join(r, 'bin')),
    SERVER_NAME,
    e,
  );
  if (found !== undefined) return { ok: true, path: found, source: 'GOPATH' };

  return { ok: false, message: NOT_FOUND_MESSAGE };
}

/** Where a platform-specific .vsix puts the server, inside the extension. */
export function bundledServerPath(extensionPath: string, platform: NodeJS.Platform): string {
  const p = pathApi(platform);
  return p.join(extensionPath, 'bin', platform === 'win32' ? `${SERVER_NAME}.exe` : SERVER_NAME);
}

/** isExecutable on the real file system. */
export function isExecutableFile(p: string): boolean {
  try {
    if (!fs.statSync(p).isFile()) return false;
    if (process.platform === 'win32') return true;
    fs.accessSync(p, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The ResolveEnv of this process. */
export function processEnv(workspaceFolders: readonly string[]): ResolveEnv {
  return {
    platform: process.platform,
    env: process.env,
    homedir: os.homedir(),
    workspaceFolders,
    isExecutable: isExecutableFile,
  };
}
