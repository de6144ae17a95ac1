/**
 * The libraries users pick instead of tilenav, each wrapped to answer "octile path, no corner
 * cutting, from (sx, sy) to (gx, gy)" on a Moving AI map, returning the path as [x, y] pairs.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const PF: any = require('pathfinding');
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const EasyStar: any = require('easystarjs');
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const createGraph: any = require('ngraph.graph');
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const ngraphPath: any = require('ngraph.path');

export type Point = [number, number];
export interface Peer {
  name: string;
  /** Work done once per map, not timed per query. */
  prepare(walk: Uint8Array, width: number, height: number): void;
  /** Untimed work before each query (PathFinding.js's grid clone, in the variant that excludes it). */
  before?(): void;
  find(sx: number, sy: number, gx: number, gy: number): Point[];
}

function matrix(walk: Uint8Array, width: number, height: number): number[][] {
  const rows: number[][] = [];
  for (let y = 0; y < height; y++) rows.push(Array.from(walk.subarray(y * width, (y + 1) * width), (w) => (w ? 0 : 1)));
  return rows;
}

function pathfindingJs(name: string, make: () => { findPath(a: number, b: number, c: number, d: number, g: unknown): Point[] }, cloneTimed: boolean): Peer {
  let grid: { clone(): unknown } | null = null;
  let fresh: unknown = null;
  const finder = make();
  return {
    name,
    prepare(walk, width, height) {
      grid = new PF.Grid(width, height, matrix(walk, width, height));
    },
    before: cloneTimed ? undefined : () => (fresh = grid!.clone()),
    find(sx, sy, gx, gy) {
      // PathFinding.js writes search state onto the grid's nodes, so every query needs a fresh copy.
      const g = cloneTimed ? grid!.clone() : fresh;
      return finder.findPath(sx, sy, gx, gy, g);
    },
  };
}

const pfOptions = () => ({ diagonalMovement: PF.DiagonalMovement.OnlyWhenNoObstacles, heuristic: PF.Heuristic.octile });

export const PEERS: Peer[] = [
  pathfindingJs('PathFinding.js A* (with clone)', () => new PF.AStarFinder(pfOptions()), true),
  pathfindingJs('PathFinding.js A* (search only)', () => new PF.AStarFinder(pfOptions()), false),
  pathfindingJs('PathFinding.js JPS (with clone)', () => new PF.JumpPointFinder(pfOptions()), true),
  pathfindingJs('PathFinding.js JPS (search only)', () => new PF.JumpPointFinder(pfOptions()), false),
  (() => {
    const es = new EasyStar.js();
    return {
      name: 'EasyStar.js (sync)',
      prepare(walk, width, height) {
        es.setGrid(matrix(walk, width, height));
        es.setAcceptableTiles([0]);
        es.enableDiagonals();
        es.disableCornerCutting();
        es.enableSync();
      },
      find(sx, sy, gx, gy) {
        let out: Point[] = [];
        es.findPath(sx, sy, gx, gy, (p: { x: number; y: number }[] | null) => {
          out = p ? p.map((q) => [q.x, q.y] as Point) : [];
        });
        es.calculate();
        return out;
      },
    } satisfies Peer;
  })(),
  (() => {
    let finder: { find(a: number, b: number): { id: number; data: Point }[] } | null = null;
    let width = 0;
    return {
      name: 'ngraph.path A*',
      prepare(walk, w, height) {
        width = w;
        const graph = createGraph();
        const ok = (x: number, y: number) => x >= 0 && y >= 0 && x < w && y < height && walk[y * w + x] === 1;
        for (let y = 0; y < height; y++) for (let x = 0; x < w; x++) if (ok(x, y)) graph.addNode(y * w + x, [x, y]);
        for (let y = 0; y < height; y++) {
          for (let x = 0; x < w; x++) {
            if (!ok(x, y)) continue;
            // Each undirected edge once: E, S, SE, SW; diagonals only with both side cells free.
            if (ok(x + 1, y)) graph.addLink(y * w + x, y * w + x + 1);
            if (ok(x, y + 1)) graph.addLink(y * w + x, (y + 1) * w + x);
            if (ok(x + 1, y + 1) && ok(x + 1, y) && ok(x, y + 1)) graph.addLink(y * w + x, (y + 1) * w + x + 1);
            if (ok(x - 1, y + 1) && ok(x - 1, y) && ok(x, y + 1)) graph.addLink(y * w + x, (y + 1) * w + x - 1);
          }
        }
        const octile = (a: { data: Point }, b: { data: Point }) => {
          const dx = Math.abs(a.data[0] - b.data[0]);
          const dy = Math.abs(a.data[1] - b.data[1]);
          return Math.max(dx, dy) + (Math.SQRT2 - 1) * Math.min(dx, dy);
        };
        finder = ngraphPath.aStar(graph, { distance: octile, heuristic: octile });
      },
      find(sx, sy, gx, gy) {
        // ngraph.path returns the path from the goal back to the start.
        return finder!.find(sy * width + sx, gy * width + gx).map((n) => n.data).reverse();
      },
    } satisfies Peer;
  })(),
];

/** Octile length of a path given as points, or NaN when a step is not a legal octile move. */
export function octileLength(path: Point[]): number {
  let len = 0;
  for (let k = 1; k < path.length; k++) {
    const dx = Math.abs(path[k][0] - path[k - 1][0]);
    const dy = Math.abs(path[k][1] - path[k - 1][1]);
    if (dx > 1 || dy > 1 || dx + dy === 0) return NaN;
    len += dx + dy === 2 ? Math.SQRT2 : 1;
  }
  return len;
}
