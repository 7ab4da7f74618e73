// The document selector against the server's own notion of served files:
//   1. the glob port (support/vscodeGlob.ts) passes the Go test table of
//      MatchGlob (discovery/registry/glob_test.go), read from the Go source;
//   2. minimatch with {dot: true}, a second, independent implementation,
//      agrees with that table on POSIX paths;
//   3. on a sample tree (fixtures/selector-cases.json, also checked by the Go
//      test selector_export_test.go against MatchGlob and Registry.Match),
//      the generated selector picks every served path and nothing else.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { minimatch } from 'minimatch';

import { SELECTOR_GLOBS } from '../src/selector.generated';
import { documentSelector } from '../src/selector';
import { REPO, readJson, readText } from './support/paths';
import { matchGlob } from './support/vscodeGlob';

interface GoCase {
  glob: string;
  path: string;
  want: boolean;
}

/** The table of TestMatchGlob, parsed from the Go source. */
function goGlobCases(): GoCase[] {
  const src = readText('discovery/registry/glob_test.go', REPO);
  const str = String.raw`("(?:[^"\\]|\\.)*"|\x60[^\x60]*\x60)`;
  const re = new RegExp(String.raw`\{${str},\s*${str},\s*(true|false)\}`, 'g');
  const unquote = (s: string): string => (s.startsWith('`') ? s.slice(1, -1) : (JSON.parse(s) as string));
  return [...src.matchAll(re)].map((m) => ({
    glob: unquote(m[1] as string),
    path: unquote(m[2] as string),
    want: m[3] === 'true',
  }));
}

/** Any glob of the selector matches, as VS Code decides. */
const selected = (path: string): boolean => SELECTOR_GLOBS.some((g) => matchGlob(g, path));
/** The same with minimatch; POSIX paths only. */
const selectedMinimatch = (path: string): boolean => SELECTOR_GLOBS.some((g) => minimatch(path, g, { dot: true }));

interface SelectorCase {
  path: string;
  selected: boolean;
  kind: string | null;
  note?: string;
}
const fixture = readJson<{ cases: SelectorCase[] }>('test/fixtures/selector-cases.json');

describe('glob semantics match discovery/registry.MatchGlob', () => {
  const cases = goGlobCases();

  it('reads the Go test table', () => {
    assert.ok(cases.length >= 35, `only ${cases.length} cases parsed from glob_test.go`);
    assert.ok(cases.some((c) => c.path.includes('\\')), 'no Windows path parsed');
  });

  it('the port agrees with every Go case', () => {
    for (const c of cases) {
      assert.equal(matchGlob(c.glob, c.path), c.want, `matchGlob(${JSON.stringify(c.glob)}, ${JSON.stringify(c.path)})`);
    }
  });

  it('minimatch {dot: true} agrees on POSIX paths and well-formed globs', () => {
    // minimatch treats "\" as an escape, not a separator, and accepts some
    // malformed patterns that MatchGlob rejects (the registry's loader
    // rejects them too, so no selector glob is malformed).
    const malformed = new Set(['', '**/a}']);
    let compared = 0;
    for (const c of cases) {
      if (c.path.includes('\\') || malformed.has(c.glob)) continue;
      compared++;
      assert.equal(minimatch(c.path, c.glob, { dot: true }), c.want, `minimatch(${JSON.stringify(c.path)}, ${JSON.stringify(c.glob)})`);
    }
    assert.ok(compared >= 30);
  });
});

describe('the generated selector on a sample tree', () => {
  it('has cases for every selector glob', () => {
    for (const g of SELECTOR_GLOBS) {
      assert.ok(
        fixture.cases.some((c) => c.selected && matchGlob(g, c.path)),
        `no sample path for ${g}: add one to test/fixtures/selector-cases.json`,
      );
    }
  });

  it('selects every served path and nothing else', () => {
    for (const c of fixture.cases) {
      assert.equal(selected(c.path), c.selected, `${c.path}: selected`);
      if (c.kind !== null) assert.ok(c.selected, `${c.path} is served as ${c.kind} but not selected`);
      else if (c.selected) assert.ok(c.note, `${c.path} is selected but not served: needs a note`);
    }
  });

  it('minimatch selects the same POSIX paths', () => {
    for (const c of fixture.cases) {
      if (c.path.includes('\\')) continue;
      assert.equal(selectedMinimatch(c.path), c.selected, `${c.path}: selected by minimatch`);
    }
  });

  it('leaves ordinary JSON files to VS Code', () => {
    for (const p of [
      '/p/package.json',
      '/p/tsconfig.json',
      '/p/.vscode/settings.json',
      '/p/foo/mcp.json',
      '/p/.mcp.json.bak',
      '/p/.vscode/extensions.json',
      '/p/.eslintrc.json',
      '/p/composer.json',
    ]) {
      assert.equal(selected(p), false, p);
    }
  });

  it('synthesised examples of each glob are selected, at the root and nested', () => {
    for (const g of SELECTOR_GLOBS) {
      // "{a,b}" -> "a", "*" -> "x": one concrete path per glob.
      const concrete = g.replace(/\{([^,}]*)[^}]*\}/g, '$1').replace(/\*\*\//g, '').replace(/\*/g, 'x');
      for (const p of [`/${concrete}`, `/home/u/some project/${concrete}`, `C:\\w\\${concrete.replaceAll('/', '\\')}`]) {
        assert.ok(selected(p), `${g}: ${p} not selected`);
      }
    }
  });

  it('document filters are one per glob, files only', () => {
    assert.deepEqual(
      documentSelector().map((f) => f.pattern),
      [...SELECTOR_GLOBS],
    );
  });
});
