// Mapping from the extension's settings (section "mcpLsp") to what the
// server is sent. Pure: no vscode import.
//
// The server is the authority on what the values mean (analysis.Settings in
// Go: it checks tool ids and rule codes, accepts severity aliases such as
// "warn", and logs what it ignores). The client only fixes the shape, so that
// a hand-edited settings.json cannot send the server nonsense, and leaves out
// its own settings (server.path, trace.server).

/** The configuration section the server asks for. */
export const SECTION = 'mcpLsp';

/** The severities package.json offers for mcpLsp.rules. */
export const SEVERITIES = ['error', 'warning', 'info', 'hint', 'off'] as const;

export const TRACE_VALUES = ['off', 'messages', 'verbose'] as const;
export type Trace = (typeof TRACE_VALUES)[number];

/** What the server receives for section "mcpLsp". */
export interface ServerSettings {
  /** Tool ids whose rules apply; empty means every tool. */
  tools: string[];
  /** Severity by rule code. */
  rules: Record<string, string>;
  /** Whether to look up stdio servers' commands on PATH. */
  commandLookup: boolean;
  /** Whether to show, above each server, what each tool does with it. */
  codeLens: boolean;
  /** Whether to show inlay hints (variables set or not, tool-name budget). */
  inlayHints: boolean;
  /**
   * Whether to report in VS Code's own mcp.json files the problems VS Code's
   * MCP schema already shows: "auto" leaves them to VS Code when the editor
   * is VS Code, "always" reports them anyway, "never" never does.
   */
  vscodeSchemaDiagnostics: VscodeSchemaDiagnostics;
}

export const VSCODE_SCHEMA_DIAGNOSTICS = ['auto', 'always', 'never'] as const;
export type VscodeSchemaDiagnostics = (typeof VSCODE_SCHEMA_DIAGNOSTICS)[number];

export const DEFAULT_SETTINGS: Readonly<ServerSettings> = Object.freeze({
  tools: [],
  rules: {},
  commandLookup: true,
  codeLens: true,
  inlayHints: true,
  vscodeSchemaDiagnostics: 'auto',
});

export interface Normalized {
  settings: ServerSettings;
  /** One line per value that was dropped, for the output channel. */
  problems: string[];
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Turns the raw "mcpLsp" section (as VS Code's configuration API returns it)
 * into the settings the server is sent. Values of the wrong type are dropped
 * and reported.
 */
export function toServerSettings(raw: unknown): Normalized {
  const problems: string[] = [];
  const settings: ServerSettings = {
    tools: [],
    rules: {},
    commandLookup: DEFAULT_SETTINGS.commandLookup,
    codeLens: DEFAULT_SETTINGS.codeLens,
    inlayHints: DEFAULT_SETTINGS.inlayHints,
    vscodeSchemaDiagnostics: DEFAULT_SETTINGS.vscodeSchemaDiagnostics,
  };
  if (raw === undefined || raw === null) {
    return { settings, problems };
  }
  if (!isRecord(raw)) {
    problems.push(`${SECTION}: expected an object, got ${JSON.stringify(raw)}; using defaults`);
    return { settings, problems };
  }

  const tools = raw.tools;
  if (Array.isArray(tools)) {
    for (const t of tools) {
      if (typeof t !== 'string') {
        problems.push(`${SECTION}.tools: ${JSON.stringify(t)} is not a tool id; ignored`);
      } else if (!settings.tools.includes(t)) {
        settings.tools.push(t);
      }
    }
  } else if (tools !== undefined && tools !== null) {
    problems.push(`${SECTION}.tools: expected an array of tool ids; ignored`);
  }

  const rules = raw.rules;
  if (isRecord(rules)) {
    for (const [code, sev] of Object.entries(rules)) {
      if (typeof sev === 'string') {
        settings.rules[code] = sev;
      } else {
        problems.push(`${SECTION}.rules: ${JSON.stringify(code)}: severity ${JSON.stringify(sev)} is not a string; ignored`);
      }
    }
  } else if (rules !== undefined && rules !== null) {
    problems.push(`${SECTION}.rules: expected an object of rule code to severity; ignored`);
  }

  for (const key of ['commandLookup', 'codeLens', 'inlayHints'] as const) {
    const v = raw[key];
    if (typeof v === 'boolean') {
      settings[key] = v;
    } else if (v !== undefined && v !== null) {
      problems.push(`${SECTION}.${key}: expected true or false; using ${settings[key]}`);
    }
  }

  const mode = raw.vscodeSchemaDiagnostics;
  if ((VSCODE_SCHEMA_DIAGNOSTICS as readonly unknown[]).includes(mode)) {
    settings.vscodeSchemaDiagnostics = mode as VscodeSchemaDiagnostics;
  } else if (mode !== undefined && mode !== null) {
    problems.push(`${SECTION}.vscodeSchemaDiagnostics: expected one of ${VSCODE_SCHEMA_DIAGNOSTICS.join(', ')}; using ${settings.vscodeSchemaDiagnostics}`);
  }

  return { settings, problems };
}

/** Normalises a trace setting; anything unknown is "off". */
export function toTrace(v: unknown): Trace {
  return typeof v === 'string' && (TRACE_VALUES as readonly string[]).includes(v) ? (v as Trace) : 'off';
}

/**
 * Extra server arguments for a trace level. vscode-languageclient adds
 * --stdio itself. The server logs to stderr, which ends up in the output
 * channel; verbose tracing also asks for debug logs.
 */
export function serverArgs(trace: Trace): string[] {
  return trace === 'verbose' ? ['--log-level', 'debug'] : [];
}
