import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { DEFAULT_SETTINGS, serverArgs, toServerSettings, toTrace } from '../src/settings';
import { TOOL_IDS } from '../src/selector.generated';

describe('toServerSettings', () => {
  it('gives the defaults for an unset section', () => {
    for (const raw of [undefined, null, {}]) {
      const { settings, problems } = toServerSettings(raw);
      assert.deepEqual(settings, DEFAULT_SETTINGS);
      assert.deepEqual(problems, []);
    }
  });

  it('passes valid values and leaves client-only settings out', () => {
    const { settings, problems } = toServerSettings({
      server: { path: '/opt/mcp-lsp' },
      trace: { server: 'verbose' },
      tools: ['claude-code', 'vscode'],
      rules: { 'duplicate-key': 'error', 'unknown-field': 'off', x: 'hint' },
      commandLookup: false,
      codeLens: false,
      inlayHints: false,
      vscodeSchemaDiagnostics: 'always',
    });
    assert.deepEqual(problems, []);
    assert.deepEqual(settings, {
      tools: ['claude-code', 'vscode'],
      rules: { 'duplicate-key': 'error', 'unknown-field': 'off', x: 'hint' },
      commandLookup: false,
      codeLens: false,
      inlayHints: false,
      vscodeSchemaDiagnostics: 'always',
    });
    assert.deepEqual(Object.keys(settings).sort(), ['codeLens', 'commandLookup', 'inlayHints', 'rules', 'tools', 'vscodeSchemaDiagnostics']);
  });

  it('accepts every registry tool id', () => {
    const { settings, problems } = toServerSettings({ tools: [...TOOL_IDS] });
    assert.deepEqual(settings.tools, [...TOOL_IDS]);
    assert.deepEqual(problems, []);
  });

  it('leaves meaning to the server: unknown ids, codes and severity aliases pass', () => {
    const { settings, problems } = toServerSettings({ tools: ['claude'], rules: { 'no-such-rule': 'warn', x: 'none' } });
    assert.deepEqual(settings, { ...DEFAULT_SETTINGS, tools: ['claude'], rules: { 'no-such-rule': 'warn', x: 'none' } });
    assert.deepEqual(problems, []);
  });

  it('drops and reports values of the wrong type', () => {
    const { settings, problems } = toServerSettings({
      tools: ['claude-code', 3, null, 'claude-code'],
      rules: { b: 'warning', c: 1, d: { x: 1 } },
      commandLookup: 'yes',
      codeLens: 0,
      vscodeSchemaDiagnostics: 'sometimes',
    });
    assert.deepEqual(settings, { ...DEFAULT_SETTINGS, tools: ['claude-code'], rules: { b: 'warning' } });
    assert.equal(problems.length, 7, problems.join('\n'));
  });

  it('reports a section of the wrong shape', () => {
    for (const raw of ['x', 1, [1], true]) {
      const { settings, problems } = toServerSettings(raw);
      assert.deepEqual(settings, DEFAULT_SETTINGS);
      assert.equal(problems.length, 1);
    }
    const { problems } = toServerSettings({ tools: 'vscode', rules: ['x'] });
    assert.equal(problems.length, 2);
  });

  it('never shares the defaults object', () => {
    const a = toServerSettings(undefined).settings;
    a.tools.push('vscode');
    a.rules.x = 'off';
    assert.deepEqual(toServerSettings(undefined).settings, DEFAULT_SETTINGS);
  });
});

describe('trace and server arguments', () => {
  it('maps trace levels', () => {
    assert.equal(toTrace('verbose'), 'verbose');
    assert.equal(toTrace('messages'), 'messages');
    assert.equal(toTrace('loud'), 'off');
    assert.equal(toTrace(undefined), 'off');
  });

  it('asks for debug logs only when tracing verbosely', () => {
    assert.deepEqual(serverArgs('verbose'), ['--log-level', 'debug']);
    assert.deepEqual(serverArgs('messages'), []);
    assert.deepEqual(serverArgs('off'), []);
  });
});
