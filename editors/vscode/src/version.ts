// Whether the server binary is the version this extension was built with.
// Pure: the `--version` output is passed in.
//
// `mcp-lsp --version` prints "mcp-lsp v1.2.3 (commit …, go1.26 linux/amd64)"
// for a release build and "mcp-lsp devel (…)" for a build from a checkout.
// The platform-specific .vsix bundles the binary of its own version; a binary
// from mcpLsp.server.path or PATH may be older or newer than the extension,
// which then offers settings or commands the server does not know (or the
// other way round), so the user is told.

export type VersionCheck =
  | { kind: 'same'; version: string }
  | { kind: 'devel'; line: string }
  | { kind: 'differs'; server: string; extension: string }
  | { kind: 'unreadable'; output: string };

/** The version in a `mcp-lsp --version` line, without its "v"; "devel" for a development build. */
export function parseVersionLine(output: string): string | undefined {
  const m = /^mcp-lsp (v?(\d+\.\d+\.\d+[^\s]*)|devel)\b/m.exec(output.trim());
  if (!m) return undefined;
  return m[2] ?? 'devel';
}

export function checkVersion(output: string, extensionVersion: string): VersionCheck {
  const v = parseVersionLine(output);
  if (v === undefined) return { kind: 'unreadable', output: output.trim().slice(0, 200) };
  if (v === 'devel') return { kind: 'devel', line: output.trim().split('\n')[0] ?? '' };
  if (v === extensionVersion) return { kind: 'same', version: v };
  return { kind: 'differs', server: v, extension: extensionVersion };
}

/** The message for a binary whose version differs from the extension's, or undefined when they agree. */
export function versionMessage(check: VersionCheck, serverPath: string): string | undefined {
  switch (check.kind) {
    case 'differs':
      return `mcp-lsp at ${serverPath} is version ${check.server}, but this extension is ${check.extension}: settings, rules or commands may not match. Install mcp-lsp ${check.extension}, or clear mcpLsp.server.path to use the server bundled with the extension.`;
    case 'unreadable':
      return `${serverPath} did not report an mcp-lsp version (\`--version\` printed ${JSON.stringify(check.output)}): is mcpLsp.server.path the mcp-lsp server?`;
    default:
      return undefined;
  }
}
