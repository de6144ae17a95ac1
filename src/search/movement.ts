import { TilenavError, describe } from '../errors.js';
import { offsetToAxial, type HexLayout } from '../grid/projection.js';

/**
 * How a unit may step from cell to cell.
 * - `cardinal`: 4 neighbours, step length 1.
 * - `octile`: 8 neighbours, diagonals of length sqrt 2 only when both side cells are walkable
 *   (no corner cutting; the default, and what the Moving AI benchmarks assume).
 * - `octile-one-obstacle`: diagonals allowed when at most one side cell is blocked
 *   (PathFinding.js's IfAtMostOneObstacle).
 * - `octile-always`: diagonals allowed even between two blocked side cells (PathFinding.js's Always).
 * - `chebyshev`: 8 neighbours like `octile` (no corner cutting), but every step has length 1,
 *   diagonals too: a path costs the cells it enters, so its cost on a uniform layer is its number
 *   of steps (the "king's move" of many roguelikes and tactics games).
 * - `chebyshev-one-obstacle`, `chebyshev-always`: the same steps with `octile-one-obstacle`'s and
 *   `octile-always`'s corner rules.
 * - `iso`: the isometric diamond grid, 4 neighbours (x +- 1, y +- 1 in tile coordinates),
 *   step length 1. Any square model may also be used on an isometric projection.
 * - `hex`: axial (q, r) coordinates, 6 neighbours, step length 1.
 * - `hex-odd-r`, `hex-even-r`, `hex-odd-q`, `hex-even-q`: offset hex layouts (Tiled's staggered
 *   hexagonal maps), 6 neighbours whose offsets depend on the row or column parity.
 * - `staggered-odd-r`, `staggered-even-r`, `staggered-odd-q`, `staggered-even-q`: Tiled's staggered
 *   isometric maps (diamonds in shifted rows, `-r`, stagger axis y; or shifted columns, `-q`, stagger
 *   axis x; `odd`/`even` is Tiled's stagger index). 4 neighbours, the diamonds sharing an edge, whose
 *   offsets depend on the row or column parity; step length 1.
 */
export type MovementName =
  | 'cardinal'
  | 'octile'
  | 'octile-one-obstacle'
  | 'octile-always'
  | 'chebyshev'
  | 'chebyshev-one-obstacle'
  | 'chebyshev-always'
  | 'iso'
  | 'hex'
  | 'hex-odd-r'
  | 'hex-even-r'
  | 'hex-odd-q'
  | 'hex-even-q'
  | 'staggered-odd-r'
  | 'staggered-even-r'
  | 'staggered-odd-q'
  | 'staggered-even-q';

/** Every {@link MovementName}, e.g. to list them in a menu or check a name read from input. */
export const MOVEMENT_NAMES: readonly MovementName[] = Object.freeze([
  'cardinal',
  'octile',
  'octile-one-obstacle',
  'octile-always',
  'chebyshev',
  'chebyshev-one-obstacle',
  'chebyshev-always',
  'iso',
  'hex',
  'hex-odd-r',
  'hex-even-r',
  'hex-odd-q',
  'hex-even-q',
  'staggered-odd-r',
  'staggered-even-r',
  'staggered-odd-q',
  'staggered-even-q',
]);

/** How many blocked side cells a diagonal step tolerates: 0 (no corner cutting), 1, or 2 (always). */
export type CornerRule = 0 | 1 | 2;

/** One possible step. */
export interface Step {
  /** Column change. */
  readonly dx: number;
  /** Row change. */
  readonly dy: number;
  /** Length of the step; its cost is length x the traversal cost of the cell entered. */
  readonly length: number;
  /** True for a diagonal of the square models, whose side cells (dx, 0) and (0, dy) the corner rule checks. */
  readonly diagonal: boolean;
}

/** A movement model's rules: its steps, corner rule and heuristic. Get one with {@link movementModel}. */
export interface MovementModel {
  /** The model's name. */
  readonly name: MovementName;
  /**
   * The distance the heuristic measures, before scaling by the layer's smallest cost. `chebyshev`
   * is max(|dx|, |dy|); `stagger-r` / `stagger-q` count diamond steps on staggered rows / columns
   * (see {@link stepDistance}).
   */
  readonly heuristic: 'manhattan' | 'octile' | 'chebyshev' | 'hex' | 'stagger-r' | 'stagger-q';
  /** Blocked side cells a diagonal step tolerates. */
  readonly corner: CornerRule;
  /** Hex layout the heuristic converts from, `axial` for square models. */
  readonly hexLayout: HexLayout;
  /** Steps for cells of even parity [0] and odd parity [1] along `parityAxis`. */
  readonly steps: readonly [readonly Step[], readonly Step[]];
  /** Which coordinate's parity picks the step table (offset hex layouts), or null. */
  readonly parityAxis: 'x' | 'y' | null;
}

const D = Math.SQRT2;
const step = (dx: number, dy: number): Step => ({ dx, dy, length: dx !== 0 && dy !== 0 ? D : 1, diagonal: dx !== 0 && dy !== 0 });
const hexStep = (dx: number, dy: number): Step => ({ dx, dy, length: 1, diagonal: false });

const CARDINAL = [step(0, -1), step(1, 0), step(0, 1), step(-1, 0)];
const OCTILE = [...CARDINAL, step(1, -1), step(1, 1), step(-1, 1), step(-1, -1)];
// The same moves, each of length 1.
const CHEBYSHEV = OCTILE.map((s) => ({ ...s, length: 1 }));
const HEX_AXIAL = [hexStep(1, 0), hexStep(1, -1), hexStep(0, -1), hexStep(-1, 0), hexStep(-1, 1), hexStep(0, 1)];
const hex = (list: number[][]) => list.map(([dx, dy]) => hexStep(dx, dy));
// Offset neighbours as Red Blob Games tabulates them: [even parity, odd parity].
const ODD_R = [hex([[1, 0], [0, -1], [-1, -1], [-1, 0], [-1, 1], [0, 1]]), hex([[1, 0], [1, -1], [0, -1], [-1, 0], [0, 1], [1, 1]])] as const;
const EVEN_R = [ODD_R[1], ODD_R[0]] as const;
const ODD_Q = [hex([[1, 0], [1, -1], [0, -1], [-1, -1], [-1, 0], [0, 1]]), hex([[1, 1], [1, 0], [0, -1], [-1, 0], [-1, 1], [0, 1]])] as const;
const EVEN_Q = [ODD_Q[1], ODD_Q[0]] as const;
// A staggered diamond shares an edge with the hex neighbours of the same offset layout except the two
// along the stagger's cross axis, which only touch it at a corner: (+-1, 0) in rows, (0, +-1) in columns.
const drop = (steps: readonly Step[], ddx: number, ddy: number) => steps.filter((s) => !(Math.abs(s.dx) === ddx && Math.abs(s.dy) === ddy));
const STAG_ODD_R = [drop(ODD_R[0], 1, 0), drop(ODD_R[1], 1, 0)] as const;
const STAG_EVEN_R = [STAG_ODD_R[1], STAG_ODD_R[0]] as const;
const STAG_ODD_Q = [drop(ODD_Q[0], 0, 1), drop(ODD_Q[1], 0, 1)] as const;
const STAG_EVEN_Q = [STAG_ODD_Q[1], STAG_ODD_Q[0]] as const;

function model(name: MovementName, heuristic: MovementModel['heuristic'], corner: CornerRule, even: Step[] | readonly Step[], odd = even, parityAxis: 'x' | 'y' | null = null, hexLayout: HexLayout = 'axial'): MovementModel {
  return Object.freeze({ name, heuristic, corner, hexLayout, steps: [even, odd] as const, parityAxis });
}

const MODELS: Record<MovementName, MovementModel> = {
  cardinal: model('cardinal', 'manhattan', 0, CARDINAL),
  octile: model('octile', 'octile', 0, OCTILE),
  'octile-one-obstacle': model('octile-one-obstacle', 'octile', 1, OCTILE),
  'octile-always': model('octile-always', 'octile', 2, OCTILE),
  chebyshev: model('chebyshev', 'chebyshev', 0, CHEBYSHEV),
  'chebyshev-one-obstacle': model('chebyshev-one-obstacle', 'chebyshev', 1, CHEBYSHEV),
  'chebyshev-always': model('chebyshev-always', 'chebyshev', 2, CHEBYSHEV),
  iso: model('iso', 'manhattan', 0, CARDINAL),
  hex: model('hex', 'hex', 0, HEX_AXIAL),
  'hex-odd-r': model('hex-odd-r', 'hex', 0, ODD_R[0], ODD_R[1], 'y', 'odd-r'),
  'hex-even-r': model('hex-even-r', 'hex', 0, EVEN_R[0], EVEN_R[1], 'y', 'even-r'),
  'hex-odd-q': model('hex-odd-q', 'hex', 0, ODD_Q[0], ODD_Q[1], 'x', 'odd-q'),
  'hex-even-q': model('hex-even-q', 'hex', 0, EVEN_Q[0], EVEN_Q[1], 'x', 'even-q'),
  'staggered-odd-r': model('staggered-odd-r', 'stagger-r', 0, STAG_ODD_R[0], STAG_ODD_R[1], 'y', 'odd-r'),
  'staggered-even-r': model('staggered-even-r', 'stagger-r', 0, STAG_EVEN_R[0], STAG_EVEN_R[1], 'y', 'even-r'),
  'staggered-odd-q': model('staggered-odd-q', 'stagger-q', 0, STAG_ODD_Q[0], STAG_ODD_Q[1], 'x', 'odd-q'),
  'staggered-even-q': model('staggered-even-q', 'stagger-q', 0, STAG_EVEN_Q[0], STAG_EVEN_Q[1], 'x', 'even-q'),
};

/** The movement model of that name; throws a TilenavError listing the names. */
export function movementModel(name: MovementName | string = 'octile'): MovementModel {
  const m = (MODELS as Record<string, MovementModel>)[name];
  if (m === undefined || !Object.hasOwn(MODELS, name)) {
    throw new TilenavError(`unknown movement model; expected one of ${MOVEMENT_NAMES.join(', ')}`, { element: `movement ${describe(name)}` });
  }
  return m;
}

const scratchA = { x: 0, y: 0 };
const scratchB = { x: 0, y: 0 };

/**
 * The fewest-steps distance between two cells under a model, ignoring walls: octile distance for
 * octile models, max(|dx|, |dy|) for Chebyshev ones, Manhattan for 4-neighbour ones, hex distance
 * for hex layouts. Staggered diamonds convert to axial (q, r) like the hex layout of the same
 * name; their 4 moves are then +-(1, -1) and +-(0, 1) on rows, so the distance is
 * |dq| + |dq + dr|, and +-(1, 0), +-(1, -1) on columns, giving |dr| + |dq + dr|. Multiplied by a
 * layer's smallest traversal cost it is an admissible and consistent A* heuristic.
 */
export function stepDistance(m: MovementModel, x1: number, y1: number, x2: number, y2: number): number {
  if (m.heuristic === 'octile') {
    const dx = Math.abs(x1 - x2);
    const dy = Math.abs(y1 - y2);
    return dx > dy ? dx + (D - 1) * dy : dy + (D - 1) * dx;
  }
  if (m.heuristic === 'manhattan') return Math.abs(x1 - x2) + Math.abs(y1 - y2);
  if (m.heuristic === 'chebyshev') return Math.max(Math.abs(x1 - x2), Math.abs(y1 - y2));
  const a = offsetToAxial(m.hexLayout, x1, y1, scratchA);
  const b = offsetToAxial(m.hexLayout, x2, y2, scratchB);
  return axialDistance(m.heuristic, a.x - b.x, a.y - b.y);
}

/** Step distance for an axial difference (dq, dr) under a hex or staggered heuristic. @internal */
export function axialDistance(kind: MovementModel['heuristic'], dq: number, dr: number): number {
  if (kind === 'stagger-r') return Math.abs(dq) + Math.abs(dq + dr);
  if (kind === 'stagger-q') return Math.abs(dr) + Math.abs(dq + dr);
  return (Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2;
}
