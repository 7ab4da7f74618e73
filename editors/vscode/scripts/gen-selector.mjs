#!/usr/bin/env node
// `npm run gen-selector`: regenerates src/selector.generated.ts and the
// registry-derived fields of package.json from
// discovery/registry/registry.json. Run it after changing the registry; the
// unit tests (and the Go registry tests) fail until the output is committed.

import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { generateAll, GENERATED_PATH, REGISTRY_PATH } from './registry-data.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { selectorModule, packageJson } = generateAll(root);
writeFileSync(join(root, GENERATED_PATH), selectorModule);
writeFileSync(join(root, 'package.json'), packageJson);
console.log(`wrote ${GENERATED_PATH} and package.json from ${REGISTRY_PATH}`);
