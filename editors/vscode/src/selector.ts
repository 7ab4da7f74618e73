// The document selector: which documents VS Code hands to mcp-lsp.
// Pure: no vscode import, so the unit tests run in plain Node.

import { SELECTOR_GLOBS } from './selector.generated';

/** A document filter as VS Code and vscode-languageclient take it. */
export interface FileFilter {
  readonly scheme: 'file';
  readonly pattern: string;
}

/**
 * One filter per registry glob, for files on disk only. No language is
 * named, so a served file stays a json or jsonc document and VS Code's own
 * JSON support keeps working beside mcp-lsp.
 */
export function documentSelector(globs: readonly string[] = SELECTOR_GLOBS): FileFilter[] {
  return globs.map((pattern) => ({ scheme: 'file', pattern }));
}
