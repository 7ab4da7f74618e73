// The checked-in generated files must be what scripts/gen-selector.mjs makes
// from the registry now, and package.json must not contribute anything that
// would make VS Code's JSON support repeat or replace mcp-lsp.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { activationEvents, generateAll, GENERATED_PATH, projectGlobs, selectorGlobs } from '../scripts/registry-data.mjs';
import { SELECTOR_GLOBS, TOOL_IDS } from '../src/selector.generated';
import { documentSelector } from '../src/selector';
import { ROOT, readJson, readText } from './support/paths';

const REGEN = 'run `npm run gen-selector` and commit the result';

interface Pkg {
  activationEvents: string[];
  contributes: Record<string, unknown> & {
    configuration: { properties: Record<string, Record<string, unknown>> };
    commands: { command: string; title: string; category?: string }[];
  };
  capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
  engines: { vscode: string };
  main: string;
  license: string;
  repository: { url: string };
  publisher: string;
}

const gen = generateAll(ROOT);
const pkg = readJson<Pkg>('package.json');

describe('generated from registry.json', () => {
  it(`${GENERATED_PATH} is up to date`, () => {
    assert.equal(readText(GENERATED_PATH), gen.selectorModule, `${GENERATED_PATH} is stale: ${REGEN}`);
  });

  it('package.json is up to date (activation events, mcpLsp.tools enum)', () => {
    assert.equal(readText('package.json'), gen.packageJson, `package.json is stale: ${REGEN}`);
  });

  it('the module the extension imports holds every registry glob and tool', () => {
    assert.deepEqual(SELECTOR_GLOBS, selectorGlobs(gen.registry));
    assert.deepEqual(
      TOOL_IDS,
      gen.registry.tools.map((t) => t.id),
    );
    assert.ok(SELECTOR_GLOBS.length >= 10, 'suspiciously few globs');
    assert.ok(SELECTOR_GLOBS.includes('**/.mcp.json'));
    assert.ok(SELECTOR_GLOBS.includes('**/.vscode/mcp.json'));
  });

  it('every kind found anywhere has globs, and every glob is in the selector', () => {
    for (const k of gen.registry.kinds) {
      if (k.location === 'home') continue;
      assert.ok((k.globs ?? []).length > 0, `${k.id} has no globs`);
      for (const g of k.globs ?? []) assert.ok(SELECTOR_GLOBS.includes(g), `${k.id}: ${g} not selected`);
    }
  });
});

describe('activation', () => {
  const events = pkg.activationEvents;

  it('starts on JSON and JSONC documents', () => {
    assert.ok(events.includes('onLanguage:json'));
    assert.ok(events.includes('onLanguage:jsonc'));
  });

  it('starts when the workspace contains any project-level served file', () => {
    const ws = events.filter((e) => e.startsWith('workspaceContains:')).map((e) => e.slice('workspaceContains:'.length));
    assert.deepEqual(ws, projectGlobs(gen.registry));
    for (const g of ['**/.mcp.json', '**/.vscode/mcp.json', '**/.cursor/mcp.json', '**/opencode.json', '**/.github/mcp.json']) {
      assert.ok(ws.includes(g), `no workspaceContains:${g}`);
    }
    for (const g of ws) assert.ok(SELECTOR_GLOBS.includes(g), `${g} activates but is not selected`);
    // Home and system files are no reason to start on a workspace.
    assert.ok(!ws.some((g) => g.includes('{Code,') || g.includes('claude_desktop') || g.includes('managed-mcp')));
  });

  it('has nothing but the generated events', () => {
    assert.deepEqual(events, activationEvents(gen.registry));
  });
});

describe('package.json contributions', () => {
  it('contributes no jsonValidation (VS Code would repeat mcp-lsp errors in its own words)', () => {
    assert.equal(pkg.contributes.jsonValidation, undefined);
    assert.ok(!readText('package.json').includes('jsonValidation'));
  });

  it('contributes no language, grammar or JSON schema of its own', () => {
    for (const k of ['languages', 'grammars', 'jsonValidation', 'yamlValidation']) {
      assert.equal(pkg.contributes[k], undefined, `contributes.${k}`);
    }
  });

  it('selects files by path only, never by language', () => {
    const sel = documentSelector();
    assert.equal(sel.length, SELECTOR_GLOBS.length);
    for (const f of sel) {
      assert.deepEqual(Object.keys(f).sort(), ['pattern', 'scheme']);
      assert.equal(f.scheme, 'file');
    }
  });

  it('declares the settings the server mirrors', () => {
    const props = pkg.contributes.configuration.properties;
    assert.deepEqual(Object.keys(props).sort(), [
      'mcpLsp.codeLens',
      'mcpLsp.commandLookup',
      'mcpLsp.inlayHints',
      'mcpLsp.rules',
      'mcpLsp.server.path',
      'mcpLsp.tools',
      'mcpLsp.trace.server',
      'mcpLsp.vscodeSchemaDiagnostics',
    ]);
    assert.deepEqual(props['mcpLsp.vscodeSchemaDiagnostics']?.enum, ['auto', 'always', 'never']);
    assert.equal(props['mcpLsp.vscodeSchemaDiagnostics']?.default, 'auto');
    assert.deepEqual((props['mcpLsp.tools']?.items as { enum: string[] }).enum, [...TOOL_IDS]);
    assert.deepEqual(
      (props['mcpLsp.rules']?.additionalProperties as { enum: string[] }).enum,
      ['error', 'warning', 'info', 'hint', 'off'],
    );
    assert.deepEqual(props['mcpLsp.trace.server']?.enum, ['off', 'messages', 'verbose']);
    assert.equal(props['mcpLsp.commandLookup']?.type, 'boolean');
    for (const key of ['mcpLsp.codeLens', 'mcpLsp.inlayHints']) {
      assert.equal(props[key]?.type, 'boolean');
      assert.equal(props[key]?.default, true);
    }
    assert.equal(props['mcpLsp.server.path']?.type, 'string');
  });

  it('does not let an untrusted workspace choose the server binary', () => {
    assert.ok(pkg.capabilities.untrustedWorkspaces.restrictedConfigurations.includes('mcpLsp.server.path'));
  });

  it('contributes the commands', () => {
    const cmd = pkg.contributes.commands.find((c) => c.command === 'mcpLsp.showEffective');
    assert.ok(cmd);
    assert.equal(`${cmd.category}: ${cmd.title}`, 'MCP: Show effective configuration');
  });

  it('has what vsce needs to package unattended', () => {
    assert.equal(pkg.main, './dist/extension.js');
    assert.match(pkg.engines.vscode, /^\^1\.\d+\.\d+$/);
    assert.ok(pkg.publisher);
    assert.ok(pkg.repository.url.includes('github.com/mcp-lsp/mcp-lsp'));
    assert.ok(['MIT', 'Apache-2.0'].includes(pkg.license));
    assert.match(readText('LICENSE'), pkg.license === 'MIT' ? /MIT License/ : /Apache License/);
  });
});
