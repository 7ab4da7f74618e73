// "MCP: Show effective configuration": asks the server for the configuration
// a tool would end up with. Pure: the request function is passed in.
//
// The server may offer it as an executeCommand command (advertised in
// executeCommandProvider.commands) or as the custom request
// "mcp-lsp/effective". Servers that have neither answer MethodNotFound; the
// command then says that this mcp-lsp version does not support it.

/** The server command, when offered through workspace/executeCommand. */
export const EFFECTIVE_COMMAND = 'mcp-lsp.showEffective';
/** The custom request, when offered that way. */
export const EFFECTIVE_REQUEST = 'mcp-lsp/effective';

export const UNSUPPORTED_MESSAGE =
  'MCP: Show effective configuration is not supported by this mcp-lsp version. Update mcp-lsp to use it.';

/** JSON-RPC's MethodNotFound. */
export const METHOD_NOT_FOUND = -32601;

export type SendRequest = (method: string, params: unknown) => Promise<unknown>;

export interface EffectiveQuery {
  /** The commands the server advertised at initialize, if any. */
  serverCommands: readonly string[] | undefined;
  sendRequest: SendRequest;
  /** URI of the active document, if any: the server may scope its answer to it. */
  uri?: string;
}

export type EffectiveResult =
  | { kind: 'ok'; via: 'executeCommand' | 'request'; value: unknown }
  | { kind: 'unsupported' };

/** Whether err is a JSON-RPC MethodNotFound error (vscode-jsonrpc's ResponseError or a plain object). */
export function isMethodNotFound(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === METHOD_NOT_FOUND;
}

/**
 * Asks the server: by workspace/executeCommand if it advertised the command,
 * else (or if that is MethodNotFound) by the custom request. Errors other
 * than MethodNotFound are thrown.
 */
export async function fetchEffective(q: EffectiveQuery): Promise<EffectiveResult> {
  const arg = q.uri === undefined ? {} : { uri: q.uri };
  if (q.serverCommands?.includes(EFFECTIVE_COMMAND)) {
    try {
      const value = await q.sendRequest('workspace/executeCommand', {
        command: EFFECTIVE_COMMAND,
        arguments: [arg],
      });
      return { kind: 'ok', via: 'executeCommand', value };
    } catch (err) {
      if (!isMethodNotFound(err)) throw err;
    }
  }
  try {
    const params = q.uri === undefined ? {} : { textDocument: { uri: q.uri } };
    const value = await q.sendRequest(EFFECTIVE_REQUEST, params);
    return { kind: 'ok', via: 'request', value };
  } catch (err) {
    if (isMethodNotFound(err)) return { kind: 'unsupported' };
    throw err;
  }
}

export interface Rendered {
  /** File extension of the read-only document, which picks its language. */
  ext: 'json' | 'md' | 'txt';
  text: string;
}

/**
 * Renders the server's answer: markup content as markdown or text, a string
 * as text, anything else as indented JSON.
 */
export function renderEffective(value: unknown): Rendered {
  if (typeof value === 'string') return { ext: 'txt', text: value };
  if (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.keys(value).length === 2 &&
    typeof (value as { kind?: unknown }).kind === 'string' &&
    typeof (value as { value?: unknown }).value === 'string'
  ) {
    const m = value as { kind: string; value: string };
    return { ext: m.kind === 'markdown' ? 'md' : 'txt', text: m.value };
  }
  return { ext: 'json', text: JSON.stringify(value ?? null, null, 2) + '\n' };
}
