import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  EFFECTIVE_COMMAND,
  EFFECTIVE_REQUEST,
  fetchEffective,
  isMethodNotFound,
  renderEffective,
  UNSUPPORTED_MESSAGE,
} from '../src/effective';

const notFound = Object.assign(new Error('method not found'), { code: -32601 });

/** A fake server: answers methods from a table, MethodNotFound otherwise. */
function server(answers: Record<string, unknown>) {
  const calls: { method: string; params: unknown }[] = [];
  const sendRequest = (method: string, params: unknown): Promise<unknown> => {
    calls.push({ method, params });
    if (!(method in answers)) return Promise.reject(notFound);
    const a = answers[method];
    return a instanceof Error ? Promise.reject(a) : Promise.resolve(a);
  };
  return { calls, sendRequest };
}

describe('fetchEffective', () => {
  it('uses workspace/executeCommand when the server advertises the command', async () => {
    const s = server({ 'workspace/executeCommand': { servers: {} } });
    const r = await fetchEffective({ serverCommands: [EFFECTIVE_COMMAND], sendRequest: s.sendRequest, uri: 'file:///p/.mcp.json' });
    assert.deepEqual(r, { kind: 'ok', via: 'executeCommand', value: { servers: {} } });
    assert.deepEqual(s.calls, [
      { method: 'workspace/executeCommand', params: { command: EFFECTIVE_COMMAND, arguments: [{ uri: 'file:///p/.mcp.json' }] } },
    ]);
  });

  it('uses the custom request otherwise', async () => {
    const s = server({ [EFFECTIVE_REQUEST]: { a: 1 } });
    const r = await fetchEffective({ serverCommands: undefined, sendRequest: s.sendRequest, uri: 'file:///p/.mcp.json' });
    assert.deepEqual(r, { kind: 'ok', via: 'request', value: { a: 1 } });
    assert.deepEqual(s.calls, [{ method: EFFECTIVE_REQUEST, params: { textDocument: { uri: 'file:///p/.mcp.json' } } }]);
  });

  it('falls back to the custom request when the command is MethodNotFound', async () => {
    const s = server({ [EFFECTIVE_REQUEST]: 'text' });
    const r = await fetchEffective({ serverCommands: [EFFECTIVE_COMMAND], sendRequest: s.sendRequest });
    assert.deepEqual(r, { kind: 'ok', via: 'request', value: 'text' });
    assert.deepEqual(
      s.calls.map((c) => c.method),
      ['workspace/executeCommand', EFFECTIVE_REQUEST],
    );
  });

  it('is unsupported when the server knows neither', async () => {
    const s = server({});
    assert.deepEqual(await fetchEffective({ serverCommands: ['other'], sendRequest: s.sendRequest }), { kind: 'unsupported' });
    assert.match(UNSUPPORTED_MESSAGE, /not supported by this mcp-lsp version/);
  });

  it('passes other errors on', async () => {
    const boom = Object.assign(new Error('internal'), { code: -32603 });
    const s = server({ [EFFECTIVE_REQUEST]: boom });
    await assert.rejects(fetchEffective({ serverCommands: [], sendRequest: s.sendRequest }), boom);
  });

  it('recognises MethodNotFound only by its code', () => {
    assert.equal(isMethodNotFound(notFound), true);
    assert.equal(isMethodNotFound({ code: -32601, message: 'x' }), true);
    assert.equal(isMethodNotFound(new Error('method not found')), false);
    assert.equal(isMethodNotFound(undefined), false);
  });
});

describe('renderEffective', () => {
  it('renders JSON, markup and text', () => {
    assert.deepEqual(renderEffective({ a: [1] }), { ext: 'json', text: '{\n  "a": [\n    1\n  ]\n}\n' });
    assert.deepEqual(renderEffective(null), { ext: 'json', text: 'null\n' });
    assert.deepEqual(renderEffective({ kind: 'markdown', value: '# x' }), { ext: 'md', text: '# x' });
    assert.deepEqual(renderEffective({ kind: 'plaintext', value: 'x' }), { ext: 'txt', text: 'x' });
    assert.deepEqual(renderEffective('plain'), { ext: 'txt', text: 'plain' });
  });
});
