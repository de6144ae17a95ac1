/**
 * The data files the tests, benchmarks and demo e2e test read, all kept in the repository under
 * test/fixtures/ so a fresh clone runs everything: movingai/ (Moving AI benchmark maps and
 * scenarios) and tiled/ (real Tiled maps in tiled-examples/ and workadventure/, generated ones at
 * the top). Nothing reads from outside the repository.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Absolute path of test/fixtures/ (with a trailing slash). */
export const FIXTURES_DIR = fileURLToPath(new URL('./fixtures/', import.meta.url));

/**
 * Absolute path of a fixture, `rel` relative to test/fixtures/ (e.g. 'movingai/rmtst01.map').
 * Throws when the file is missing, naming it, so a renamed fixture fails loudly at the call site
 * rather than as an ENOENT deep inside a loader.
 */
export function fixture(rel: string): string {
  const p = fileURLToPath(new URL(`./fixtures/${rel}`, import.meta.url));
  if (!existsSync(p)) throw new Error(`test fixture ${rel} is missing (expected at ${p})`);
  return p;
}

/** A fixture's text (UTF-8); `rel` as for {@link fixture}. */
export function readFixture(rel: string): string {
  return readFileSync(fixture(rel), 'utf8');
}

/** Path of a Moving AI map or scenario file by name, e.g. movingAi('rmtst01.map.scen'). */
export const movingAi = (name: string): string => fixture(`movingai/${name}`);
